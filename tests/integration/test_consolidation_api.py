"""Consolidation through the HTTP API, on both backends: a tenant with near-duplicates, rival beliefs
stored before their predicate became single-valued, one claim from two sources, a week of old
events, two spellings of one person and memories past retention. A dry run changes nothing and
answers exactly the changes the forced run then makes; the run is explainable, audited, idempotent,
resumable after a failure half way, and leaves a look-alike tenant untouched."""
from __future__ import annotations

import asyncio
import json
import threading
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from credence_client import Credence
from credence_client.cli import main
from graph.consolidation import KIND, LlmSummariser, Request, check_params, handler
from graph.consolidation import apply as applying
from graph.core.errors import InvalidInput
from graph.llm import ChatClient
from graph.maintenance import Handlers, Worker, WorkerPolicy
from graph.memories.model import Claim, NewMemory, Provenance
from tests.helpers import assert_problem, list_all
from tests.integration.test_api_keys import bearer, issue

LONG_AGO = datetime.now(UTC) - timedelta(days=60)
ALL = {"include_all": True}


def post(client, agent, text, **fields) -> dict:
    response = client.post("/v1/memories", json={"agent": agent, "text": text, **fields})
    assert response.status_code in (200, 201), response.text
    return response.json()


def claim(subject, predicate, value) -> dict:
    return {"subject": subject, "predicate": predicate, "value": value}


def at(days: float, hours: float = 0) -> str:
    return (LONG_AGO + timedelta(days=days, hours=hours)).isoformat()


def seed(client, agent) -> dict[str, dict]:
    """One realistic tenant; returns its memories by a short name."""
    put = lambda p, **schema: client.put(f"/v1/predicates/{p}", params={"agent": agent}, json=schema)  # noqa: E731
    assert put("favourite_colour", cardinality="multi").status_code == 200
    assert put("allergy", dedup_policy="store").status_code == 200
    m = {
        "tea": post(client, agent, "The user prefers green tea in the morning", tags=["drinks"],
                    provenance={"source": "tool_output", "ref": "order-history"}),
        "tea2": post(client, agent, "The user prefers green tea in the mornings", tags=["tea"],
                     provenance={"source": "inference"}),
        "tea3": post(client, agent, "The user prefers green tea every morning",
                     provenance={"source": "document", "ref": "doc-1"}),
        "blue": post(client, agent, "The user's favourite colour is blue",
                     claim=claim("user", "favourite_colour", "blue"), provenance={"source": "user_explicit"}),
        "green": post(client, agent, "The user's favourite colour is green",
                      claim=claim("user", "favourite_colour", "green"), provenance={"source": "user_explicit"}),
        "peanuts": post(client, agent, "The user is allergic to peanuts", claim=claim("user", "allergy", "peanuts"),
                        provenance={"source": "user_implicit", "ref": "chat-1"}),
        "peanuts2": post(client, agent, "Medical record: peanut allergy confirmed",
                         claim=claim("user", "allergy", "peanuts"), provenance={"source": "document", "ref": "doc-7"}),
        "day1": post(client, agent, "Team offsite day one in Lisbon: planning the product roadmap",
                     memory_type="event", event_at=at(0)),
        "day2": post(client, agent, "Team offsite day two in Lisbon: roadmap workshops with the product team",
                     memory_type="event", event_at=at(1)),
        "day3": post(client, agent, "Team offsite day three in Lisbon: closing the roadmap and a team dinner",
                     memory_type="event", event_at=at(2)),
        "dentist": post(client, agent, "Dentist appointment for a cleaning", memory_type="event", event_at=at(1, 5)),
        "recent": post(client, agent, "Team offsite day four in Lisbon: the roadmap review", memory_type="event",
                       event_at=(datetime.now(UTC) - timedelta(days=2)).isoformat()),
        "jon": post(client, agent, "Jon Smith works at Acme Corp", claim=claim("Jon Smith", "employer", "Acme Corp")),
        "john": post(client, agent, "John Smith lives in Berlin", claim=claim("John Smith", "lives_in", "Berlin")),
        "old": post(client, agent, "The user used a flip phone in 2005"),
        "expired": post(client, agent, "The user's parking permit is valid until 2020",
                        expires_at="2020-06-01T00:00:00Z"),
    }
    archived = client.delete(f"/v1/memories/{m['old']['id']}", params={"agent": agent})
    assert archived.status_code == 200 and archived.json()["status"] == "archived"
    # Stored while the predicate was multi-valued; single-valued from now on: the two are rivals.
    assert put("favourite_colour", cardinality="single").status_code == 200
    return m


@contextmanager
def pruning(services):
    """The session's service with pruning allowed, for the length of a test."""
    before = services.consolidation.defaults
    services.consolidation.defaults = replace(before, prune_allowed=True)
    try:
        yield
    finally:
        services.consolidation.defaults = before


@contextmanager
def joined_exactly(services):
    """Near-duplicates found by the opt-in exact join of the tenant's embeddings, not the vector index."""
    before = services.consolidation.defaults
    services.consolidation.defaults = replace(before, exact_pairs_max=100_000)
    try:
        yield
    finally:
        services.consolidation.defaults = before


def consolidate(client, agent, dry_run, **body) -> dict:
    response = client.post("/v1/consolidate", json={"agent": agent, "dry_run": dry_run, **body})
    assert response.status_code == 200, response.text
    return response.json()


def state(client, agent) -> dict:
    """What a tenant holds, by text: status, trust, corroboration (ids differ between tenants)."""
    memories = list_all(client, agent, **ALL)
    conflicts = client.get("/v1/conflicts", params={"agent": agent, "include_resolved": True}).json()["conflicts"]
    entities = client.get("/v1/entities", params={"agent": agent}).json()["entities"]
    return {"memories": sorted((m["text"], m["status"], round(m["trust"], 3), m["corroboration"], m["memory_type"])
                               for m in memories),
            "conflicts": sorted((c["status"], c["reason"], c["new_claim"]["value"], c["existing_claim"]["value"])
                                for c in conflicts),
            "entities": sorted(e["name"] for e in entities)}


def comparable(changes: list[dict]) -> list[dict]:
    return [{**c, "trust_before": None, "trust_after": None} for c in changes]


def test_a_dry_run_changes_nothing_and_the_forced_run_does_exactly_its_preview(client, services, agent):
    m = seed(client, agent)
    twin = agent + "-twin"
    seed(client, twin)
    ids = {k: v["id"] for k, v in m.items()}
    with pruning(services):
        before = state(client, agent)
        twin_before = state(client, twin)
        audit_before = client.get("/v1/audit", params={"agent": agent, "limit": 500}).json()["count"]
        preview = consolidate(client, agent, True, thresholds={"retention_days": 0})
        assert state(client, agent) == before, "a dry run writes nothing"
        assert client.get("/v1/audit", params={"agent": agent, "limit": 500}).json()["count"] == audit_before

        kinds = [(c["kind"], c["target"], sorted(c["others"])) for c in preview["changes"]]
        jon = client.get("/v1/entities", params={"agent": agent, "name": "Jon Smith"}).json()["entities"][0]["id"]
        john = client.get("/v1/entities", params={"agent": agent, "name": "John Smith"}).json()["entities"][0]["id"]
        assert kinds[:6] == [
            ("merge", ids["tea"], sorted([ids["tea2"], ids["tea3"]])),
            ("contradiction", ids["green"], [ids["blue"]]),
            ("corroborate", ids["peanuts"], [ids["peanuts2"]]),
            ("corroborate", ids["peanuts2"], [ids["peanuts"]]),
            ("digest", preview["changes"][4]["target"], sorted([ids["day1"], ids["day2"], ids["day3"]])),
            ("entity_merge", jon, [john]),
        ], kinds
        assert sorted(kinds[6:]) == sorted([("prune", ids["old"], []), ("prune", ids["expired"], [])])
        assert preview["deduplicated"] == 2 and preview["contradictions"] == {"pending": 1, "resolved": 0}
        assert preview["corroborated"] == 2 and preview["digests"] == {"clusters": 1, "source_memories": 3}
        assert preview["entities_merged"] == 1 and preview["pruned"] == {"archived": 1, "expired": 1}
        assert preview["after"] == {"total": preview["before"]["total"] - 2 + 1,
                                    "active": preview["before"]["active"] - 2 + 1 - 1}
        digest = preview["changes"][4]
        assert digest["text"].startswith("Digest of 3 events") and "Lisbon" in digest["text"]
        assert "Dentist" not in digest["text"]
        merge = preview["changes"][0]
        assert merge["trust_after"] > merge["trust_before"] and merge["score"] >= 0.95
        with joined_exactly(services):  # the index (the default) and the exact join agree
            joined = consolidate(client, agent, True, thresholds={"retention_days": 0})
        assert [(c["kind"], c["target"], sorted(c["others"])) for c in joined["changes"]] == kinds
        assert joined["changes"][0]["score"] == pytest.approx(merge["score"], abs=1e-3)

        run = consolidate(client, agent, False, thresholds={"retention_days": 0})
        assert comparable(run["changes"]) == comparable(preview["changes"]), "the run did exactly the preview"
        for planned, done in zip(preview["changes"], run["changes"], strict=True):
            for key in ("trust_before", "trust_after"):
                assert planned[key] == pytest.approx(done[key], abs=1e-3)
        assert run["skipped"] == 0 and run["after"] == preview["after"]
        assert state(client, twin) == twin_before, "a look-alike tenant is untouched"

    # Near-duplicates: archived, linked to the memory that stays, which holds every source and the best trust.
    tea = client.get(f"/v1/memories/{ids['tea']}", params={"agent": agent}).json()
    assert tea["status"] == "active" and tea["corroboration"] == 3 and set(tea["tags"]) == {"drinks", "tea"}
    # tool_output 0.85, plus two more sources (0.05 each)
    assert tea["trust"] == pytest.approx(merge["trust_after"], abs=1e-3) == pytest.approx(0.95, abs=1e-3)
    explained = client.get(f"/v1/memories/{ids['tea']}/explain", params={"agent": agent}).json()
    assert {s["type"] for s in explained["sources"]} == {"tool_output", "inference", "document"}
    for dup in ("tea2", "tea3"):
        gone = client.get(f"/v1/memories/{ids[dup]}", params={"agent": agent}).json()
        assert gone["status"] == "archived", "nothing is lost: archived, not deleted"
        links = client.get(f"/v1/memories/{ids[dup]}/links", params={"agent": agent}).json()["links"]
        assert [(link["type"], link["direction"], link["id"]) for link in links] == [
            ("DUPLICATE_OF", "out", ids["tea"])]
        history = client.get(f"/v1/memories/{ids[dup]}/history", params={"agent": agent}).json()["operations"]
        [merged] = [o for o in history if o["op"] == "merge"]
        assert merged["after"]["survivor"] == ids["tea"] and ids[dup] in merged["after"]["cosine"]
        assert merged["actor"] == "api" and merged["job_id"] is None
    # A merge edge is the engine's: nobody removes it over the API.
    assert client.delete(f"/v1/memories/{ids['tea2']}/links/DUPLICATE_OF/{ids['tea']}",
                         params={"agent": agent}).status_code == 409

    # Contradiction: a pending conflict, both beliefs still active, nothing resolved.
    [pending] = client.get("/v1/conflicts", params={"agent": agent}).json()["conflicts"]
    assert (pending["new_id"], pending["existing_id"], pending["reason"]) == (ids["green"], ids["blue"],
                                                                              "coexisting_rivals")
    assert pending["new_status"] == pending["existing_status"] == "active"

    # Corroboration: each peanut belief counts both sources; trust rose by the formula.
    for key in ("peanuts", "peanuts2"):
        after = client.get(f"/v1/memories/{ids[key]}", params={"agent": agent}).json()
        assert after["corroboration"] == 2 and after["trust"] > m[key]["trust"]

    # Digest: a new memory, written through the write path, linked to its members.
    made = client.get(f"/v1/memories/{digest['target']}", params={"agent": agent}).json()
    assert made["category"] == "digest" and made["memory_type"] == "event" and made["text"] == digest["text"]
    links = client.get(f"/v1/memories/{digest['target']}/links", params={"agent": agent}).json()["links"]
    assert sorted(link["id"] for link in links if link["type"] == "DIGEST_OF") == sorted(digest["others"])
    for member in ("day1", "day2", "day3", "dentist"):
        assert client.get(f"/v1/memories/{ids[member]}", params={"agent": agent}).json()["status"] == "active"

    # Duplicate entities: one entity, the other's name an alias of it.
    smith = client.get("/v1/entities", params={"agent": agent, "name": "John Smith"}).json()["entities"]
    assert [e["name"] for e in smith] == ["Jon Smith"]

    # Pruning: deleted as a hard delete deletes, audited without content.
    for key in ("old", "expired"):
        assert client.get(f"/v1/memories/{ids[key]}", params={"agent": agent}).status_code == 404
    pruned = client.get("/v1/audit", params={"agent": agent, "op": "prune"}).json()["items"]
    assert sorted(o["after"]["id"] for o in pruned) == sorted([ids["old"], ids["expired"]])
    assert all("flip phone" not in json.dumps(o) for o in pruned)
    [summary] = client.get("/v1/audit", params={"agent": agent, "op": "consolidate"}).json()["items"]
    assert summary["after"]["deduplicated"] == 2 and summary["after"]["pruned"] == 2

    # Once is enough: the next run finds nothing to do (the duplicates it archived are kept for the
    # default retention; with none they would be pruned next).
    with pruning(services):
        again = consolidate(client, agent, False)
    assert again["changes"] == [] and again["after"] == again["before"]


def test_a_run_that_fails_half_way_ends_as_one_run_when_it_runs_again(client, services, run, agent, monkeypatch):
    twin = agent + "-one-run"
    seed(client, agent)
    seed(client, twin)
    real = applying.Applier._corroborations

    async def dies(self, batch):
        raise RuntimeError("the worker died here")

    monkeypatch.setattr(applying.Applier, "_corroborations", dies)
    with pytest.raises(RuntimeError):
        run(services.consolidation.consolidate, Request(agent=agent))
    # Merges and conflicts landed, in their own transactions; corroboration and what follows did not.
    assert client.get("/v1/conflicts", params={"agent": agent}).json()["count"] == 1
    monkeypatch.setattr(applying.Applier, "_corroborations", real)
    resumed = consolidate(client, agent, False)
    assert [c["kind"] for c in resumed["changes"]] == ["corroborate", "corroborate", "digest", "entity_merge"]
    consolidate(client, twin, False)
    assert state(client, agent) == state(client, twin)


def test_bad_input_is_refused_by_name_in_the_api_and_in_the_domain(client, services, run, agent):
    before = client.get("/v1/audit", params={"agent": agent}).json()["count"]
    for body, field in [
        ({"steps": {"dedupe": True}}, "steps.dedupe"),
        ({"steps": {"duplicates": "yes"}}, "steps.duplicates"),
        ({"thresholds": {"duplicate_similarity": 0.5}}, "thresholds.duplicate_similarity"),
        ({"thresholds": {"digest_min_members": 2.5}}, "thresholds.digest_min_members"),
        ({"thresholds": {"retention_days": -1}}, "thresholds.retention_days"),
        ({"dry_run": "false"}, "dry_run"),
        ({"agent": "has space"}, "agent"),
        ({"steps": {"prune": True}}, "steps.prune"),  # pruning is off on this service
    ]:
        assert_problem(client.post("/v1/consolidate", json={"agent": agent, **body}), 422, field)
    assert client.get("/v1/audit", params={"agent": agent}).json()["count"] == before

    # The domain checks the same itself: a job or a pipeline calling graph/ directly.
    for request, field in [
        (Request(agent=agent, steps={"prune": True}), "steps.prune"),
        (Request(agent=agent, thresholds={"entity_similarity": 2}), "thresholds.entity_similarity"),
        (Request(agent=agent, thresholds={"digest_min_members": True}), "thresholds.digest_min_members"),
        (Request(agent=agent, thresholds={"nope": 1}), "thresholds.nope"),
        (Request(agent=agent, steps=["duplicates"]), "steps"),  # type: ignore[arg-type]
        (Request(agent=""), "agent"),
    ]:
        with pytest.raises(InvalidInput) as refused:
            run(services.consolidation.consolidate, request)
        assert refused.value.field == field


def test_scoped_keys_preview_with_read_and_apply_with_admin(client, agent):
    post(client, agent, "The user prefers window seats on trains")
    post(client, agent, "The user prefers window seats on the train")
    reader, writer, admin = (issue(client, role, [agent]) for role in ("read", "write", "admin"))
    body = {"agent": agent, "dry_run": True}
    assert client.post("/v1/consolidate", json=body, headers=bearer(reader)).json()["deduplicated"] == 1
    assert client.post("/v1/consolidate", json={**body, "agent": agent + "-x"},
                       headers=bearer(reader)).status_code == 403
    forced = {**body, "dry_run": False}
    assert client.post("/v1/consolidate", json=forced, headers=bearer(reader)).status_code == 403
    # Merging entities is an administrator's call: a write key applies the other steps.
    assert client.post("/v1/consolidate", json=forced, headers=bearer(writer)).status_code == 403
    done = client.post("/v1/consolidate", json={**forced, "steps": {"entities": False}}, headers=bearer(writer))
    assert done.status_code == 200 and done.json()["deduplicated"] == 1
    assert client.post("/v1/consolidate", json=forced, headers=bearer(admin)).json()["changes"] == []


def test_the_command_line_previews_and_applies(client, agent, capsys):
    post(client, agent, "The user prefers window seats on trains")
    post(client, agent, "The user prefers window seats on the train")
    api = Credence(http=client, actor="cli-test")
    assert main(["consolidate", agent, "--dry-run"], api=api) == 0
    preview = json.loads(capsys.readouterr().out)
    assert preview["dry_run"] and preview["deduplicated"] == 1
    assert main(["consolidate", agent, "--skip", "entities", "--threshold", "duplicate_similarity=0.99"], api=api) == 0
    strict = json.loads(capsys.readouterr().out)
    assert strict["steps"] == ["duplicates", "contradictions", "corroboration", "digests"]
    assert strict["thresholds"]["duplicate_similarity"] == 0.99 and strict["deduplicated"] == 0
    assert main(["consolidate", agent], api=api) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["changes"] == preview["changes"] and done["after"]["active"] == 1
    [merge] = client.get("/v1/audit", params={"agent": agent, "op": "merge"}).json()["items"]
    assert merge["actor"] == "cli-test"
    assert main(["consolidate", agent, "--threshold", "duplicate_similarity=2"], api=api) == 1
    assert "thresholds.duplicate_similarity" in capsys.readouterr().err


class _ChatCompletions(BaseHTTPRequestHandler):
    """A chat-completions endpoint that answers with the events it was given, counted."""
    asked: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).asked.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        events = body["messages"][-1]["content"].count("\n") + 1
        answer = {"id": "x", "object": "chat.completion", "model": body["model"], "choices": [
            {"index": 0, "finish_reason": "stop",
             "message": {"role": "assistant", "content": f"A three-day team offsite in Lisbon ({events} notes)."}}]}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def test_an_llm_summariser_behind_the_same_interface_writes_the_digest(client, services, agent):
    for day, text in enumerate(["Offsite in Lisbon, day one: roadmap planning",
                                "Offsite in Lisbon, day two: roadmap workshops",
                                "Offsite in Lisbon, day three: roadmap wrap-up"]):
        post(client, agent, text, memory_type="event", event_at=at(day))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _ChatCompletions)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    before = services.consolidation.summariser
    services.consolidation.summariser = LlmSummariser(
        ChatClient(f"http://127.0.0.1:{server.server_port}/v1", "tiny-model", api_key="sk-test", timeout=10))
    try:
        _ChatCompletions.asked.clear()
        report = consolidate(client, agent, False, steps={"entities": False})
    finally:
        services.consolidation.summariser = before
        server.shutdown()
    [digest] = [c for c in report["changes"] if c["kind"] == "digest"]
    assert digest["text"].endswith("A three-day team offsite in Lisbon (3 notes).")
    assert "(llm summary)" in digest["reason"]
    [asked] = _ChatCompletions.asked
    assert asked["path"] == "/v1/chat/completions" and asked["auth"] == "Bearer sk-test"
    assert asked["body"]["model"] == "tiny-model" and asked["body"]["temperature"] == 0
    stored = client.get(f"/v1/memories/{digest['target']}", params={"agent": agent}).json()
    assert stored["text"] == digest["text"]


def test_as_a_job_on_the_durable_queue_every_record_carries_the_job_id(client, services, run, agent):
    """POST /v1/jobs with kind `consolidate`, run by a worker of the queue: the preview and then the
    run land as the jobs' results, with progress, and every audit record names its job."""
    seed(client, agent)
    handlers = Handlers(services.maintenance.queue)
    handlers.register(KIND, handler(services.consolidation), check_params)
    worker = Worker(services.runner, services.maintenance.queue, handlers,
                    WorkerPolicy(backoff_seconds=0.0, poll_interval=0.05))

    def job(**params) -> dict:
        answer = client.post("/v1/jobs", json={"agent": agent, "kind": KIND, "params": params},
                             headers={"X-Credence-Actor": "nightly"})
        assert answer.status_code == 201, answer.text
        run(worker.drain)
        done = client.get(f"/v1/jobs/{answer.json()['id']}", params={"agent": agent}).json()
        assert done["status"] == "succeeded", done
        return done

    preview = job(dry_run=True)
    assert preview["result"]["job_id"] == preview["id"] and preview["progress"] == {"done": 5, "total": 5}
    applied = job(steps={"entities": False})
    result = applied["result"]
    assert [c["kind"] for c in result["changes"]] == [c["kind"] for c in preview["result"]["changes"]
                                                      if c["kind"] != "entity_merge"]
    assert applied["progress"]["done"] == applied["progress"]["total"] == len(result["changes"])
    records = client.get("/v1/audit", params={"agent": agent, "actor": "nightly", "limit": 500}).json()["items"]
    assert {o["op"] for o in records} >= {"merge", "contradiction", "corroborate", "digest", "store", "consolidate"}
    assert {o["job_id"] for o in records} == {applied["id"]}
    refused = client.post("/v1/jobs", json={"agent": agent, "kind": KIND, "params": {"force": True}})
    assert "params.force" in str(assert_problem(refused, 422)["errors"])


def test_writers_of_the_same_beliefs_during_a_run_corrupt_nothing(client, services, run, agent):
    """Claims written to the slots a run is changing, while it runs: afterwards no rival pair stands
    without a conflict, and every belief's corroboration is its number of sources."""
    seed(client, agent)
    colours = ["red", "teal", "ochre", "navy", "plum", "sand"]

    async def together():
        async def writer(i: int):
            return await services.writes.store(NewMemory(
                agent=agent, text=f"The user's favourite colour is {colours[i]}",
                claim=Claim("user", "favourite_colour", colours[i]), provenance=Provenance("document", f"d{i}")))
        return await asyncio.gather(services.consolidation.consolidate(Request(agent=agent)),
                                    *(writer(i) for i in range(len(colours))))

    report, *_ = run(together)
    assert report.skipped >= 0
    after = consolidate(client, agent, True, steps={"duplicates": False, "digests": False, "entities": False})
    assert after["contradictions"]["pending"] == 0 and after["corroborated"] == 0, after["changes"]
    for memory in list_all(client, agent, **ALL):
        sources = client.get(f"/v1/memories/{memory['id']}/explain", params={"agent": agent}).json()["sources"]
        assert memory["corroboration"] == len(sources), memory
