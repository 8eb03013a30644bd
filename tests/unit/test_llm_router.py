"""The optional LLM router (graph/asking/router.py, through the one chat-model client graph/llm)
against a small local HTTP server that speaks the chat-completions protocol: the request it sends,
the route it reads back, and the fallback to the rules when the model is down, slow or answers
nonsense."""
from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from graph.asking import LlmRouter
from graph.llm import ChatClient


class ChatServer:
    """POST /v1/chat/completions: records each request, answers with the next queued content."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.answers: list[str | int] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
                answer = outer.answers.pop(0)
                if isinstance(answer, int):
                    self.send_response(answer)
                    self.end_headers()
                    return
                payload = json.dumps({"id": "x", "object": "chat.completion", "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}]})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(payload.encode())

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def chat():
    server = ChatServer()
    yield server
    server.server.shutdown()


def test_the_model_routes_through_the_same_record(chat):
    chat.answers.append(json.dumps({"intent": "historical", "also": ["temporal", "bogus"], "slots": {
        "subject": "user", "predicate": "lives_in", "entity": "Leeds", "topic": None, "exclude": [],
        "window": "in 2019"}}))
    router = LlmRouter(ChatClient(chat.url, "small-model", api_key="k-123", timeout=5))
    got = asyncio.run(router.route("where was I living in 2019"))
    assert (got.intent, got.also, got.router) == ("historical", ("temporal",), "llm")
    assert (got.slots.predicate, got.slots.entity, got.slots.window) == ("lives_in", ("Leeds",), "in 2019")
    sent = chat.requests[0]
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == "Bearer k-123"
    assert sent["body"]["model"] == "small-model" and sent["body"]["temperature"] == 0
    assert sent["body"]["messages"][-1] == {"role": "user", "content": "where was I living in 2019"}


def test_the_rules_answer_when_the_model_fails(chat):
    router = LlmRouter(ChatClient(chat.url, "m", timeout=5))
    for answer in (500, "not json at all", json.dumps({"intent": "gossip"}), "```json\n{}\n```"):
        chat.answers.append(answer)
        got = asyncio.run(router.route("what did I decide about the move"))
        assert (got.intent, got.router) == ("decision", "rules")
        assert got.reasons[0].startswith("llm: unavailable")
    down = LlmRouter(ChatClient("http://127.0.0.1:9/v1", "m", timeout=1))  # nothing listens there
    assert asyncio.run(down.route("tell me about Marcus")).intent == "entity"


def test_a_fenced_json_answer_is_read(chat):
    chat.answers.append("```json\n" + json.dumps({"intent": "goal", "slots": {}}) + "\n```")
    got = asyncio.run(LlmRouter(ChatClient(chat.url, "m")).route("what am I working toward"))
    assert (got.intent, got.also, got.slots.entity) == ("goal", (), ())
