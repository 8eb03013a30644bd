"""The Python client and the `credence` command line, through the HTTP API on the real backend.
The client is handed the app's TestClient (an httpx.Client), so every call is a real request."""
from __future__ import annotations

import io
import json
import socket
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import anyio
import httpx
import pytest

from credence_client import (
    AsyncCredence,
    Conflict,
    Credence,
    CredenceAPIError,
    InvalidInput,
    NotFound,
    Retry,
    Unavailable,
)
from credence_client.cli import main
from credence_client.endpoints import Call


@pytest.fixture
def api(client) -> Credence:
    return Credence(http=client, actor="client-test")


def cli(api: Credence, capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), api=api)
    out, err = capsys.readouterr()
    return code, out, err


def belief(subject: str, predicate: str, value: str) -> dict:
    return {"subject": subject, "predicate": predicate, "value": value}


def test_the_client_covers_a_memory_s_life(api, agent):
    stored = api.remember(agent, "The user prefers dark mode", memory_type="preference", tags=["ui"])
    assert api.get(agent, stored.id).text == "The user prefers dark mode"
    batch = api.remember_many(agent, ["The user lives in Porto", {"text": "The user likes jazz", "importance": 0.9}])
    assert [m.text for m in batch] == ["The user lives in Porto", "The user likes jazz"]
    assert {m.id for m in api.memories(agent)} == {stored.id, *(m.id for m in batch)}

    found = api.search(agent, "dark mode for the UI", explain=True)
    assert found.results[0].id == stored.id and found.meta.agent == agent
    assert found.results[0].explain["rerank"]["composite_score"] == found.results[0].composite_score
    [many] = api.search_many(agent, [{"query": "music taste", "limit": 1}])
    assert many.results[0].text == "The user likes jazz"
    context = api.context(agent, "what does the user like?", max_tokens=60)
    assert context.token_estimate <= 60 and "The user" in context.context

    updated = api.update(agent, stored.id, importance=0.8, expected_version=1)
    assert (updated.version, updated.importance) == (2, 0.8)
    assert api.reinforce(agent, stored.id).reinforcements == 1
    assert api.explain(agent, stored.id).trust.inputs["reinforcements"] == 1
    actors = {op.actor for op in api.history(agent, stored.id).operations}
    assert actors == {"client-test"}  # X-Credence-Actor reaches the audit trail

    assert api.link(agent, batch[0].id, "SUPPORTS", batch[1].id)[0].id == batch[1].id
    api.unlink(agent, batch[0].id, "SUPPORTS", batch[1].id)
    assert api.links(agent, batch[0].id) == []

    assert api.archive(agent, stored.id).status == "archived"
    assert api.delete(agent, batch[0].id).deleted is True
    assert {m.id for m in api.memories(agent, include_all=True)} == {stored.id, batch[1].id}


def test_the_client_reviews_conflicts_and_quarantine(api, agent):
    real = api.remember(agent, "Budget is $750", claim=belief("project", "budget_is", "$750"),
                        provenance={"source": "user_explicit"})
    poison = api.remember(agent, "Budget is $0", claim=belief("project", "budget_is", "$0"),
                          provenance={"source": "document"})
    assert poison.status == "quarantined" and poison.pending_conflict_id is not None
    [conflict] = api.conflicts(agent)
    assert (conflict.id, conflict.new_id, conflict.existing_id) == (poison.pending_conflict_id, poison.id, real.id)
    assert conflict.new_claim.value == "$0"
    assert [m.id for m in api.quarantined(agent)] == [poison.id]
    resolved = api.resolve_conflict(agent, conflict.id, "reject", reason="the document was a draft")
    assert resolved.memory.status == "archived"
    assert api.conflicts(agent) == [] and list(api.quarantined(agent)) == []

    flagged = api.quarantine(agent, real.id, details="double-check")
    assert flagged.status == "quarantined" and flagged.quarantine.details == "double-check"
    assert api.review(agent, real.id, "activate").memory.status == "active"


def test_rejections_raise_with_the_problem_s_fields(api, agent):
    with pytest.raises(InvalidInput) as bad:
        api.search(agent, "x", limit=0)
    assert bad.value.status == 422 and bad.value.errors[0]["field"] == "limit"
    with pytest.raises(NotFound) as missing:
        api.get(agent, "00000000-0000-4000-8000-000000000000")
    assert missing.value.status == 404 and "not found" in missing.value.detail
    assert isinstance(missing.value, CredenceAPIError) and missing.value.type == "urn:credence:problem:not-found"
    assert list(api.memories(agent)) == []  # nothing was written


def test_the_command_line_stores_searches_and_packs_context(api, agent, capsys):
    code, out, _ = cli(api, capsys, "remember", agent, "The user prefers window seats", "--type", "preference",
                       "--tag", "travel", "--source", "user_explicit")
    stored = json.loads(out)
    assert code == 0 and (stored["memory_type"], stored["tags"], stored["source_type"]) == \
        ("preference", ["travel"], "user_explicit")
    cli(api, capsys, "remember", agent, "The user lives in Lisbon", "--claim", "user", "lives_in", "Lisbon")

    code, out, _ = cli(api, capsys, "search", agent, "seat on the plane", "--limit", "1", "--explain")
    found = json.loads(out)
    assert code == 0 and [r["id"] for r in found["results"]] == [stored["id"]]
    assert found["meta"]["options"]["limit"] == 1

    code, out, _ = cli(api, capsys, "context", agent, "travel preferences", "--max-tokens", "40")
    assert code == 0 and out.startswith("## ") and "- The user prefers window seats" in out

    code, out, _ = cli(api, capsys, "list", agent)
    assert code == 0 and len(json.loads(out)) == 2
    code, out, _ = cli(api, capsys, "explain", agent, stored["id"])
    assert code == 0 and json.loads(out)["trust"]["inputs"]["source"] == "user_explicit"


def test_the_command_line_says_what_to_fix_and_exits_non_zero(api, agent, capsys):
    code, out, err = cli(api, capsys, "search", agent, "x", "--limit", "500")
    assert (code, out) == (1, "") and "422" in err and "limit:" in err
    code, _, err = cli(api, capsys, "get", agent, "00000000-0000-4000-8000-000000000000")
    assert code == 1 and "404" in err


def test_the_command_line_reports_an_unreachable_service(capsys):
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["--url", f"http://127.0.0.1:{port}", "ready"]) == 3
    assert "cannot reach the service" in capsys.readouterr().err


def test_a_stale_version_raises_conflict_with_the_version_to_retry_with(api, agent):
    stored = api.remember(agent, "The user prefers tea")
    api.update(agent, stored.id, importance=0.9, expected_version=1)
    with pytest.raises(Conflict) as stale:
        api.update(agent, stored.id, importance=0.1, expected_version=1)
    assert (stale.value.status, stale.value.current_version) == (409, 2)
    assert api.get(agent, stored.id).importance == 0.9


def test_the_client_and_the_command_line_remember_from_what_was_said(api, agent, capsys, tmp_path, monkeypatch):
    said = api.ingest(agent, ["I live in Berlin.", {"role": "user", "text": "We finally relocated to Lisbon!"}])
    assert [(o.op, o.mode, o.claim.value if o.claim else None) for o in said.operations] == [
        ("ADD", None, "Berlin"), ("UPDATE", "supersede", "Lisbon")]
    assert said.extractor == "rules" and not said.dry_run
    # A plain store read through ingestion answers its operations; without the flag, the memory.
    job = api.remember(agent, "I work at Acme.", ingest=True)
    assert job.ingested and [(o.op, o.claim.predicate) for o in job.operations] == [("ADD", "works_at")]
    note = api.remember(agent, "Parking is on level 2.")
    assert note.text == "Parking is on level 2." and not getattr(note, "ingested", False)

    chat = tmp_path / "chat.txt"
    chat.write_text('I left Acme and joined Globex.\n\n{"role": "assistant", "text": "Congrats!"}\n')
    code, out, _ = cli(api, capsys, "ingest", agent, str(chat), "--dry-run")
    planned = json.loads(out)
    assert code == 0 and planned["dry_run"] is True
    assert [(o["op"], o["claim"]["value"]) for m in planned["messages"] for o in m["operations"]] == [
        ("UPDATE", "Globex")]
    assert [m.text for m in api.memories(agent) if "Globex" in m.text] == []  # a dry run writes nothing
    monkeypatch.setattr("sys.stdin", io.StringIO("My dentist is Dr. Lee.\n"))
    code, out, _ = cli(api, capsys, "ingest", agent)
    assert code == 0 and [o["claim"]["predicate"] for o in json.loads(out)["messages"][0]["operations"]] == ["dentist"]
    code, _, err = cli(api, capsys, "ingest", agent, str(tmp_path / "missing.txt"))
    assert code == 1 and "cannot read" in err


def test_the_async_client_makes_the_same_calls(client, run, agent):
    async def session():
        # On the service's own event loop (the driver is bound to it), through the app's ASGI interface.
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=client.app), base_url="http://testserver")
        try:
            async with AsyncCredence(http=http, actor="async-test") as api:
                stored = await api.remember(agent, "The user prefers green tea", memory_type="preference")
                batch = await api.remember_many(agent, [f"note {i}" for i in range(3)])
                found = await api.search(agent, "hot drinks", limit=1)
                listed = [m.id async for m in api.memories(agent)]
                history = await api.history(agent, stored.id)
                said = await api.ingest(agent, ["My gym is PureGym."], dry_run=True)
                assert [o.claim.value for o in said.operations if o.claim] == ["PureGym"]
                with pytest.raises(NotFound):
                    await api.get(agent, str(uuid.uuid4()))
                return stored, batch, found, listed, history
        finally:
            await http.aclose()

    stored, batch, found, listed, history = run(session)
    assert [hit.id for hit in found.results] == [stored.id]
    assert sorted(listed) == sorted([stored.id, *(m.id for m in batch)])
    assert [op.actor for op in history.operations] == ["async-test"]


def test_a_write_sent_again_with_its_idempotency_key_stores_once(api, agent):
    first = api.remember_many(agent, ["The user moved to Porto", "The user has a cat"], idempotency_key="batch-1")
    again = api.remember_many(agent, ["The user moved to Porto", "The user has a cat"], idempotency_key="batch-1")
    assert [m.id for m in again] == [m.id for m in first]
    with pytest.raises(Conflict) as reused:
        api.remember_many(agent, ["Something else"], idempotency_key="batch-1")
    assert reused.value.status == 409
    one = api.remember(agent, "The user likes jazz", idempotency_key="one-1")
    assert api.remember(agent, "The user likes jazz", idempotency_key="one-1").id == one.id
    # Without a key of the caller's, each call is a new write (a fresh key per call).
    assert api.remember(agent, "The user likes jazz").id != api.remember(agent, "The user likes jazz").id
    assert sorted(m.text for m in api.memories(agent)) == sorted(
        ["The user moved to Porto", "The user has a cat", *["The user likes jazz"] * 3])


def test_the_async_client_sends_idempotency_keys_too(client, run, agent):
    async def session():
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=client.app), base_url="http://testserver")
        try:
            async with AsyncCredence(http=http) as api:
                first = await api.remember(agent, "The user prefers tea", idempotency_key="k-tea")
                again = await api.remember(agent, "The user prefers tea", idempotency_key="k-tea")
                patched = await api.update(agent, first.id, importance=0.2, idempotency_key="k-patch")
                repatched = await api.update(agent, first.id, importance=0.2, idempotency_key="k-patch")
                listed = [m.id async for m in api.memories(agent)]
                return first, again, patched, repatched, listed
        finally:
            await http.aclose()

    first, again, patched, repatched, listed = run(session)
    assert again.id == first.id and listed == [first.id]
    assert patched.version == repatched.version == 2


class Flaky(BaseHTTPRequestHandler):
    """A real HTTP server that answers 503 with Retry-After (as the service does while its graph
    backend is down) to the first `failures` requests, then 200. It notes each request's
    Idempotency-Key."""
    failures, retry_after, seen = 0, "0", 0
    keys: ClassVar[list] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).keys.append(self.headers.get("Idempotency-Key"))
        self.do_GET()

    def do_GET(self) -> None:
        type(self).seen += 1
        if self.seen <= self.failures:
            body, status, headers = {"type": "urn:credence:problem:backend-unavailable", "status": 503,
                                     "title": "Graph backend unavailable", "detail": "retry later"}, 503, {
                "Retry-After": self.retry_after, "Content-Type": "application/problem+json"}
        elif self.path.startswith("/ready"):
            body, status, headers = {"ready": True}, 200, {"Content-Type": "application/json"}
        else:
            body, status, headers = {"status": 404, "title": "Not found", "detail": "no such thing"}, 404, {}
        data = json.dumps(body).encode()
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(data))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_):
        pass


@pytest.fixture
def flaky() -> Iterator[type[Flaky]]:
    handler = type("FlakyHandler", (Flaky,), {"keys": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    handler.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield handler
    server.shutdown()
    server.server_close()


def test_a_503_is_retried_and_then_answers(flaky):
    flaky.failures = 2
    with Credence(flaky.url) as api:
        assert api.ready() == {"ready": True}
    assert flaky.seen == 3


def test_the_async_client_retries_a_503_too(flaky):
    flaky.failures = 1

    async def ready():
        async with AsyncCredence(flaky.url) as api:
            return await api.ready()

    assert anyio.run(ready) == {"ready": True} and flaky.seen == 2


def test_retries_are_bounded_and_the_last_503_is_raised(flaky):
    flaky.failures, flaky.retry_after = 100, "120"
    # Retry-After asks for two minutes; max_wait caps each wait, attempts the tries.
    with Credence(flaky.url, retry=Retry(attempts=3, max_wait=0.01)) as api, pytest.raises(Unavailable) as down:
        api.ready()
    assert flaky.seen == 3
    assert (down.value.status, down.value.detail, down.value.retry_after) == (503, "retry later", 120.0)
    # max_total bounds the waits of one call: 0.05 + 0.05, then a third wait would pass 0.12.
    flaky.seen = 0
    with Credence(flaky.url, retry=Retry(attempts=10, max_wait=0.05, max_total=0.12)) as api, \
            pytest.raises(Unavailable):
        api.ready()
    assert flaky.seen == 3


def test_other_problems_are_not_retried(flaky):
    with Credence(flaky.url) as api, pytest.raises(NotFound):
        api.send(Call("GET", "/nothing"))
    assert flaky.seen == 1


def test_every_retry_of_a_write_carries_the_same_idempotency_key(flaky):
    flaky.failures = 2
    with Credence(flaky.url) as api, pytest.raises(NotFound):
        api.remember("a", "The user likes jazz")
    assert flaky.seen == 3 and len(set(flaky.keys)) == 1 and flaky.keys[0]
    flaky.seen, flaky.keys[:] = 0, []
    with Credence(flaky.url) as api, pytest.raises(NotFound):
        api.remember_many("a", ["one"], idempotency_key="mine")
    assert flaky.keys == ["mine", "mine", "mine"]
    flaky.seen, flaky.keys[:] = 0, []

    async def remember():
        async with AsyncCredence(flaky.url) as api:
            await api.remember("a", "The user likes jazz")

    with pytest.raises(NotFound):
        anyio.run(remember)
    assert len(flaky.keys) == 3 and len(set(flaky.keys)) == 1


def test_the_clients_and_the_command_line_ask_and_keep_preferences(api, client, run, agent, capsys):
    api.remember(agent, "I live in Leeds", claim=belief("user", "lives_in", "Leeds"))
    api.remember(agent, "I moved to Lisbon", claim=belief("user", "lives_in", "Lisbon"))
    answer = api.ask(agent, "where did I use to live?")
    assert (answer.intent, answer.explain.handler) == ("historical", "historical")
    assert [(s.value, s.current) for s in answer.timeline] == [("Leeds", False), ("Lisbon", True)]
    code, out, _ = cli(api, capsys, "ask", agent, "where did I use to live?", "--summary")
    assert code == 0 and "Leeds" in out and "Lisbon" in out and "current" in out
    code, out, _ = cli(api, capsys, "ask", agent, "what do you know about me?")
    assert code == 0 and json.loads(out)["intent"] == "about_me"

    prefs = api.set_preferences(agent, never_store_types=["event"], context_max_tokens=200)
    assert (prefs.version, prefs.never_store_types) == (1, ["event"])
    assert api.preferences(agent).context_max_tokens == 200
    with pytest.raises(InvalidInput):
        api.remember(agent, "Dinner on Friday", memory_type="event")
    code, out, _ = cli(api, capsys, "preferences", agent)
    assert code == 0 and json.loads(out)["never_store_types"] == ["event"]

    async def session():
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=client.app), base_url="http://testserver")
        try:
            async with AsyncCredence(http=http) as aio:
                return await aio.ask(agent, "where did I use to live?"), await aio.preferences(agent)
        finally:
            await http.aclose()

    asked, kept = run(session)
    assert asked.timeline[-1].value == "Lisbon" and kept.version == 1
