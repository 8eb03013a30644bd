"""The optional LLM extractor and decider, against a small chat-completions server started here on
loopback: it answers by tool call or by JSON object as an OpenAI-compatible API does, and records
what it was sent. Checks the plumbing (the request's shape, the key, redaction before sending,
parsing the answers, applying them through the belief engine, falling back to the rules on an
unusable answer), never a model's quality: there is no model here."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from graph.ingestion.llm import LLMDecider, LLMExtractor
from graph.ingestion.model import Message
from graph.ingestion.service import IngestRequest, IngestService
from graph.llm import ChatClient

# What the fake model extracts from each message it is sent (anything else: an answer that is no JSON).
EXTRACTED = {
    "I live in Berlin.": [{"text": "I live in Berlin.", "memory_type": "fact", "subject": "user",
                           "predicate": "lives_in", "value": "Berlin"}],
    "We finally relocated to Lisbon! My password is [REDACTED:password]": [
        {"text": "We finally relocated to Lisbon!", "memory_type": "fact", "subject": "user",
         "predicate": "lives_in", "value": "Lisbon"}],
}


class ChatCompletions(BaseHTTPRequestHandler):
    """POST /v1/chat/completions: a tool call when the request offers tools, else a JSON object."""
    seen: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        asked = json.loads(body["messages"][1]["content"])
        extracting = "message" in asked
        answer = self._extract(asked) if extracting else self._decide(asked)
        tool = "record_memories" if extracting else "decide"
        if "tools" in body:
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call-1", "type": "function", "function": {"name": tool, "arguments": answer}}]}
        else:
            message = {"role": "assistant", "content": answer}
        out = json.dumps({"id": "chat-1", "object": "chat.completion", "model": body["model"],
                          "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    @staticmethod
    def _extract(asked: dict[str, Any]) -> str:
        found = EXTRACTED.get(asked["message"])
        return json.dumps({"memories": found}) if found is not None else "sorry, I cannot help with that"

    @staticmethod
    def _decide(asked: dict[str, Any]) -> str:
        new = asked["new"]["claim"]
        same = [e for e in asked["existing"] if e["claim"] and new and e["claim"][1] == new["predicate"]]
        if same:
            return json.dumps({"operation": "UPDATE", "mode": "supersede", "memory_id": same[-1]["memory_id"],
                               "reasoning": "the user moved"})
        return json.dumps({"operation": "ADD", "mode": None, "memory_id": None, "reasoning": "nothing like it"})

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def chat_server() -> Iterator[str]:
    ChatCompletions.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), ChatCompletions)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("mode", ["tools", "json"])
def test_the_llm_steps_speak_chat_completions_and_fall_back_to_the_rules(client, services, run, agent, chat_server,
                                                                        mode):
    async def session() -> Any:
        chat = ChatClient(chat_server, "tiny-model", api_key="sk-test-key", mode=mode, timeout=10)
        service = IngestService(services.runner, services.writes, services.retrieval, max_messages=10,
                                max_text_chars=4000, extractor=LLMExtractor(chat), decider=LLMDecider(chat))
        now = datetime.now(UTC)
        said = [Message("user", "I live in Berlin.", now - timedelta(minutes=3)),
                Message("user", "We finally relocated to Lisbon! My password is hunter2!!", now - timedelta(minutes=2)),
                Message("user", "My dentist is Dr. Lee.", now - timedelta(minutes=1))]
        return await service.ingest(IngestRequest(agent, tuple(said)))

    result = run(session)
    ops = [(o.op, o.mode, o.claim.predicate if o.claim else None, o.claim.value if o.claim else None, o.reason)
           for m in result.messages for o in m.operations]
    assert (result.extractor, result.decider) == ("llm", "llm")
    assert ops[0][:4] == ("ADD", None, "lives_in", "Berlin") and ops[0][4] == "nothing like it"
    assert ops[1][:4] == ("UPDATE", "supersede", "lives_in", "Lisbon") and ops[1][4] == "the user moved"
    # The third message's extraction was no JSON: the rules read it, and the decision still came from the model.
    assert ops[2][:4] == ("ADD", None, "dentist", "Dr. Lee")
    assert [k for k, _, _ in result.messages[1].secrets] == ["password"]

    seen = ChatCompletions.seen
    assert {s["path"] for s in seen} == {"/v1/chat/completions"} and {s["auth"] for s in seen} == {"Bearer sk-test-key"}
    assert {s["body"]["model"] for s in seen} == {"tiny-model"}
    if mode == "tools":
        assert all(s["body"]["tool_choice"]["type"] == "function" and "response_format" not in s["body"] for s in seen)
    else:
        assert all(s["body"]["response_format"] == {"type": "json_object"} and "tools" not in s["body"] for s in seen)
    assert not any("hunter2" in json.dumps(s["body"]) for s in seen)  # redacted before it is sent
    # Applied through the write path and the belief engine: Berlin is history, Lisbon the present.
    listed = client.get("/v1/memories", params={"agent": agent, "include_superseded": "true"}).json()["items"]
    assert {m["text"]: m["status"] for m in listed} == {
        "I live in Berlin.": "superseded", "We finally relocated to Lisbon!": "active",
        "My dentist is Dr. Lee.": "active"}


def test_an_unreachable_model_leaves_the_rules_to_decide(services, run, agent):
    async def session() -> Any:
        chat = ChatClient("http://127.0.0.1:9/v1", "tiny-model", timeout=2)
        service = IngestService(services.runner, services.writes, services.retrieval, max_messages=10,
                                max_text_chars=4000, extractor=LLMExtractor(chat), decider=LLMDecider(chat))
        return await service.ingest(IngestRequest(agent, (Message("user", "I work at Acme.", datetime.now(UTC)),)))

    result = run(session)
    [op] = result.messages[0].operations
    assert (op.op, op.claim.predicate if op.claim else None) == ("ADD", "works_at")
    assert "rules decided" in op.reason


def test_the_agents_preferences_steer_ingestion(client, services, run, agent, chat_server):
    """The memory preferences (graph/preferences) where ingestion meets them: the agent's own
    extraction instructions reach the LLM extractor's system prompt; what it never stores is left
    out (and said so) instead of refusing the message; `ingest_by_default` sends its plain stores
    through the pipeline, while an agent that never set preferences keeps the deployment's default."""
    put = client.put("/v1/preferences", json={"agent": agent, "never_store_topics": ["dentist"],
                                              "extraction_instructions": "Focus on where I live.",
                                              "ingest_by_default": True})
    assert put.status_code == 200, put.text

    async def session() -> Any:
        chat = ChatClient(chat_server, "tiny-model", timeout=10)
        service = IngestService(services.runner, services.writes, services.retrieval, max_messages=10,
                                max_text_chars=4000, extractor=LLMExtractor(chat), decider=LLMDecider(chat),
                                preferences=services.preferences)
        return await service.ingest(IngestRequest(agent, (
            Message("user", "I live in Berlin.", datetime.now(UTC) - timedelta(minutes=2)),
            Message("user", "My dentist is Dr. Lee.", datetime.now(UTC) - timedelta(minutes=1)))))

    result = run(session)
    extracting = [s["body"] for s in ChatCompletions.seen
                  if "message" in json.loads(s["body"]["messages"][1]["content"])]
    assert extracting and all("Focus on where I live." in b["messages"][0]["content"] for b in extracting)
    assert [o.op for o in result.messages[0].operations] == ["ADD"]
    assert result.messages[1].operations == () and any("'dentist'" in s for s in result.messages[1].skipped)
    texts = [m["text"] for m in client.get("/v1/memories", params={"agent": agent}).json()["items"]]
    assert texts == ["I live in Berlin."]

    # A plain store without a flag: this agent's preference reads it; a fresh agent's stays plain.
    stored = client.post("/v1/memories", json={"agent": agent, "text": "We finally relocated to Lisbon!"})
    assert stored.status_code == 200 and stored.json()["ingested"] is True, stored.text
    other = f"{agent}-fresh"
    plain = client.post("/v1/memories", json={"agent": other, "text": "We finally relocated to Lisbon!"})
    assert plain.status_code == 201 and "ingested" not in plain.json(), plain.text
