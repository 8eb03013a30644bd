"""The one chat-model client (graph/llm/client.py) against httpx's mock transport: what each kind
of call sends, what it reads back, and that every way the model fails reaches the caller as
LlmError; and the one settings block (CREDENCE_LLM_*) that configures it."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from graph.llm import ChatClient, LlmError
from graph.services import chat_model
from graph.settings import Settings

TOOL = {"type": "function", "function": {"name": "remember", "parameters": {
    "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}}


def answering(message: dict[str, Any] | None = None, status: int = 200, raw: bytes | None = None,
              seen: list[dict[str, Any]] | None = None) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append({"url": str(request.url), "auth": request.headers.get("Authorization"),
                         "body": json.loads(request.content)})
        if raw is not None:
            return httpx.Response(status, content=raw)
        return httpx.Response(status, json={"choices": [{"index": 0, "message": message}]})
    return httpx.MockTransport(handle)


def test_each_call_sends_the_protocol_and_reads_its_answer():
    seen: list[dict[str, Any]] = []
    chat = ChatClient("http://model.local/v1/", "tiny", api_key="sk-1", transport=answering(
        {"role": "assistant", "content": "  A digest.  "}, seen=seen))
    assert asyncio.run(chat.text("sys", "user")) == "A digest."
    [sent] = seen
    assert sent["url"] == "http://model.local/v1/chat/completions" and sent["auth"] == "Bearer sk-1"
    assert sent["body"] == {"model": "tiny", "temperature": 0, "messages": [
        {"role": "system", "content": "sys"}, {"role": "user", "content": "user"}]}

    seen.clear()
    fenced = ChatClient("http://model.local/v1", "tiny", transport=answering(
        {"content": '```json\n{"intent": "goal"}\n```'}, seen=seen))
    assert asyncio.run(fenced.json_object("sys", "q")) == {"intent": "goal"}
    assert seen[0]["body"]["response_format"] == {"type": "json_object"} and seen[0]["auth"] is None

    seen.clear()
    tools = ChatClient("http://model.local/v1", "tiny", transport=answering(
        {"tool_calls": [{"function": {"name": "remember", "arguments": '{"text": "likes tea"}'}}]}, seen=seen))
    assert asyncio.run(tools.structured("sys", "msg", TOOL)) == {"text": "likes tea"}
    assert seen[0]["body"]["tools"] == [TOOL] and "temperature" not in seen[0]["body"]
    assert seen[0]["body"]["tool_choice"] == {"type": "function", "function": {"name": "remember"}}

    seen.clear()
    as_json = ChatClient("http://model.local/v1", "tiny", mode="json", transport=answering(
        {"content": '{"text": "likes tea"}'}, seen=seen))
    assert asyncio.run(as_json.structured("sys", "msg", TOOL)) == {"text": "likes tea"}
    body = seen[0]["body"]
    assert "tools" not in body and body["response_format"] == {"type": "json_object"}
    assert body["messages"][0]["content"].startswith("sys Answer with one JSON object matching: {")


@pytest.mark.parametrize(("transport", "call", "reason"), [
    (answering(status=500, raw=b"boom"), "text", "HTTP 500"),
    (answering(raw=b"<html>"), "text", "the answer is not JSON"),
    (answering(raw=b'{"choices": []}'), "text", "no choices[0].message in the answer"),
    (answering({"content": "no json"}), "json_object", "the content is not JSON"),
    (answering({"content": "[1, 2]"}), "json_object", "the content is not a JSON object"),
    (answering({"content": "I would rather not"}), "structured", "no tool call in the answer"),
])
def test_every_failure_is_one_llm_error(transport, call, reason):
    chat = ChatClient("http://model.local/v1", "tiny", transport=transport)
    args = ("sys", "user", TOOL) if call == "structured" else ("sys", "user")
    with pytest.raises(LlmError) as raised:
        asyncio.run(getattr(chat, call)(*args))
    assert raised.value.reason == reason


def test_a_slow_or_absent_server_is_an_llm_error_too():
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)
    with pytest.raises(LlmError, match=r"timed out after 2 s"):
        asyncio.run(ChatClient("http://model.local/v1", "m", timeout=2, transport=httpx.MockTransport(slow))
                    .text("s", "u"))
    with pytest.raises(LlmError, match=r"unreachable \(ConnectError\)"):
        asyncio.run(ChatClient("http://127.0.0.1:9/v1", "m", timeout=2).text("s", "u"))
    with pytest.raises(ValueError, match="mode"):
        ChatClient("http://model.local/v1", "m", mode="xml")


def test_one_settings_block_configures_the_model_for_every_feature(monkeypatch):
    for name in ("BASE_URL", "MODEL", "API_KEY", "ASK", "EXTRACT", "DECIDE", "DIGESTS"):
        monkeypatch.delenv(f"CREDENCE_LLM_{name}", raising=False)
    assert Settings().llm_features == () and chat_model(Settings()) is None  # the default: no model at all
    monkeypatch.setenv("CREDENCE_LLM_ASK", "true")
    monkeypatch.setenv("CREDENCE_LLM_DIGESTS", "true")
    with pytest.raises(ValidationError, match="CREDENCE_LLM_ASK and CREDENCE_LLM_DIGESTS ask a chat model"):
        Settings()
    monkeypatch.setenv("CREDENCE_LLM_BASE_URL", "http://127.0.0.1:8080/v1")
    monkeypatch.setenv("CREDENCE_LLM_MODEL", "small")
    monkeypatch.setenv("CREDENCE_LLM_API_KEY", "sk-2")
    settings = Settings.from_env()
    assert settings.llm_features == ("ask", "digests")
    chat = chat_model(settings)
    assert chat is not None and (chat.url, chat.model, chat.mode, chat.timeout) == (
        "http://127.0.0.1:8080/v1/chat/completions", "small", "tools", 30.0)
    assert chat.headers == {"Authorization": "Bearer sk-2"} and "sk-2" not in repr(settings)
    # The per-feature names of before are gone: one left in the environment stops the start.
    monkeypatch.setenv("CREDENCE_INGEST_LLM_MODEL", "small")
    with pytest.raises(ValueError, match=r"CREDENCE_INGEST_LLM_MODEL \(did you mean CREDENCE_LLM_MODEL"):
        Settings.from_env()
