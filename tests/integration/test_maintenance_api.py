"""Expiry and decay as jobs, through the HTTP API on both backends: what each archives and keeps,
the audit record of every change with its job and reason, the scheduled fan-out from the system
tenant to one job per tenant (admin), tenants kept apart, restore of what they archived, and the
queue's depth and outcomes on /metrics (docs/maintenance.md)."""
from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

from graph.maintenance import Handlers, Worker, WorkerPolicy
from graph.maintenance.decay import Decay
from graph.maintenance.decay_rules import DecayPolicy
from graph.maintenance.expiry import Expiry
from graph.maintenance.expiry import check_params as no_params
from graph.maintenance.stemming import Stemming
from graph.retrieval import SearchQuery, Visibility
from tests.conftest import TEST_ADMIN_KEY
from tests.helpers import assert_problem, sample, scrape, search, store

ADMIN = {"Authorization": f"Bearer {TEST_ADMIN_KEY}"}
POLICY = DecayPolicy(half_life_days=90, floor=0.1, min_idle_days=30, exempt_importance=0.9)


def maintenance_worker(services) -> Worker:
    """The built-in kinds with the default decay policy, one memory per transaction (so a run is
    many checkpoints), on a worker of this test's."""
    handlers = Handlers(services.maintenance.queue)
    handlers.register("expire", Expiry(batch=1), no_params)
    handlers.register("decay", Decay(POLICY, batch=2), no_params)
    handlers.register("stem", Stemming(batch=1), no_params)
    return Worker(services.runner, services.maintenance.queue, handlers, WorkerPolicy(backoff_seconds=0.0))


def ago(days: float) -> str:
    return (datetime.now(UTC) - timedelta(days=days)).isoformat().replace("+00:00", "Z")


def audit(client, agent: str, op: str) -> list[dict]:
    answer = client.get("/v1/audit", params={"agent": agent, "op": op, "limit": 500})
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


def tenant_jobs(client, agent: str, kind: str) -> list[dict]:
    return client.get("/v1/jobs", params={"agent": agent, "kind": kind}).json()["items"]


def memory(client, agent: str, memory_id: str) -> dict:
    return client.get(f"/v1/memories/{memory_id}", params={"agent": agent}).json()


def keyword_ids(client, services, agent: str, query: str) -> list[list[str]]:
    """The ids a keyword search finds through a small tenant's scan, then through the full-text index."""
    hints, found = services.retrieval.candidates.hints, []
    key = Visibility.of(SearchQuery(agent=agent, text=query)).key
    for large in (False, True):
        hints.mark(key, large=large)
        try:
            answer = client.post("/v1/search", json={"agent": agent, "query": query, "mode": "keyword"})
            assert answer.status_code == 200, answer.text
            found.append([r["id"] for r in answer.json()["results"]])
        finally:
            hints.mark(key, large=False)
    return found


def test_expiry_archives_each_expired_memory_once_audited_and_restorable(client, services, run, agent):
    gone = store(client, agent, "The office wifi is down until noon", expires_at=ago(1))
    kept = store(client, agent, "The parking permit runs out next year", expires_at=ago(-300))
    plain = store(client, agent, "The office is on the fourth floor")
    city = store(client, agent, "The user is staying in Lisbon this week", expires_at=ago(0.01),
                 claim={"subject": "user", "predicate": "staying_in", "value": "Lisbon"})
    other = f"t-{uuid.uuid4().hex[:12]}"
    elsewhere = store(client, other, "The office wifi is down until noon", expires_at=ago(1))
    assert gone["id"] not in {r["id"] for r in search(client, agent, "office wifi down")}  # hidden at once

    worker = maintenance_worker(services)
    queued = client.post("/v1/jobs", json={"agent": agent, "kind": "expire"}, headers={"X-Credence-Actor": "ops"})
    assert queued.status_code == 201, queued.text
    assert run(worker.drain) == 1
    done = client.get(f"/v1/jobs/{queued.json()['id']}", params={"agent": agent}).json()
    assert (done["status"], done["result"], done["progress"]) == ("succeeded", {"archived": 2}, {"done": 2, "total": 2})
    assert {m["id"]: memory(client, agent, m["id"])["status"] for m in (gone, kept, plain, city)} == \
        {gone["id"]: "archived", kept["id"]: "active", plain["id"]: "active", city["id"]: "archived"}
    assert memory(client, other, elsewhere["id"])["status"] == "active"  # the job was the tenant's own

    records = sorted(audit(client, agent, "expire"), key=lambda r: r["memory_ids"])
    assert [r["memory_ids"] for r in records] == sorted([[gone["id"]], [city["id"]]])
    for record in records:
        assert (record["actor"], record["job_id"], record["before"]["status"]) == ("ops", done["id"], "active")
        assert record["after"]["status"] == "archived" and record["after"]["reason"] == "expired"
        assert record["after"]["expires_at"] is not None
    assert audit(client, other, "expire") == []

    # An operator restores one: active again, its passed expiry cleared (the record keeps it).
    restored = client.post(f"/v1/memories/{gone['id']}/restore", params={"agent": agent},
                           json={"reason": "still needed"}, headers={"X-Credence-Actor": "operator"})
    assert restored.status_code == 200, restored.text
    assert (restored.json()["status"], restored.json()["expires_at"]) == ("active", None)
    [record] = audit(client, agent, "restore")
    assert (record["actor"], record["memory_ids"], record["job_id"]) == ("operator", [gone["id"]], None)
    assert record["before"]["status"] == "archived" and record["before"]["archived_reason"] == "expired"
    assert record["before"]["expires_at"] is not None
    assert record["after"] == {"status": "active", "reason": "still needed", "expires_at": None}
    assert gone["id"] in {r["id"] for r in search(client, agent, "office wifi down")}
    assert_problem(client.post(f"/v1/memories/{gone['id']}/restore", params={"agent": agent}), 409)
    assert_problem(client.post(f"/v1/memories/{gone['id']}/restore", params={"agent": other}), 404)

    # A belief whose slot moved on while it was archived comes back quarantined, not as a second value.
    porto = store(client, agent, "The user is staying in Porto this week",
                  claim={"subject": "user", "predicate": "staying_in", "value": "Porto"})
    assert porto["status"] == "active"
    back = client.post(f"/v1/memories/{city['id']}/restore", params={"agent": agent}).json()
    assert back["status"] == "quarantined" and back["quarantine"]["reason"] == "restored_over_rival"
    assert porto["id"] in back["quarantine"]["details"]
    assert memory(client, agent, porto["id"])["status"] == "active"

    # The scheduler's system job fans out: the other tenant gets its own job, which archives its memory.
    system = client.post("/v1/admin/jobs", json={"kind": "expire"}, headers=ADMIN)
    assert system.status_code == 201, system.text
    assert system.json()["agent"] == "_system"
    run(worker.drain)
    fanned = client.get(f"/v1/admin/jobs/{system.json()['id']}", headers=ADMIN).json()
    assert fanned["status"] == "succeeded" and fanned["result"]["tenants"] >= 1
    [child] = tenant_jobs(client, other, "expire")
    assert (child["parent_id"], child["status"], child["result"]) == (fanned["id"], "succeeded", {"archived": 1})
    assert memory(client, other, elsewhere["id"])["status"] == "archived"
    assert client.get("/v1/admin/jobs", headers=ADMIN, params={"kind": "expire"}).json()["items"][0]["id"] == \
        fanned["id"]
    assert client.get("/v1/admin/jobs").status_code == 401  # system jobs are the operator's


def test_decay_archives_what_went_unused_below_the_floor_and_nothing_else(client, services, run, agent):
    """Memories imported with their old times: the formula, not a test policy, decides."""
    base = f"t-{uuid.uuid4().hex[:12]}"
    texts = {"faded": (0.5, 400, 0, 0), "exempt": (0.95, 400, 0, 0), "used": (0.5, 400, 50, 0),
             "recent": (0.5, 10, 0, 0), "reinforced": (0.5, 400, 0, 5), "trivial": (0.05, 40, 0, 0)}
    for name in texts:
        store(client, base, f"A memory that is {name}")
    exported = [json.loads(line) for line in client.get("/v1/export", params={"agent": base}).text.splitlines()]
    lines, ids = [], {}
    for line in exported:
        if line["kind"] == "memory":
            name = line["text"].rsplit(" ", 1)[1]
            importance, idle, accesses, reinforcements = texts[name]
            ids[name] = str(uuid.uuid4())
            line.update(id=ids[name], importance=importance, created_at=ago(500), updated_at=ago(idle),
                        last_accessed_at=ago(idle) if accesses else None, access_count=accesses,
                        reinforcements=reinforcements)
        if line["kind"] != "operation":
            lines.append(line)
    body = "".join(json.dumps(line) + "\n" for line in lines)
    imported = client.post("/v1/import", params={"agent": agent}, content=body,
                           headers={"content-type": "application/x-ndjson"})
    assert imported.status_code == 200, imported.text

    worker = maintenance_worker(services)
    system = client.post("/v1/admin/jobs", json={"kind": "decay"}, headers=ADMIN).json()
    run(worker.drain)
    assert client.get(f"/v1/admin/jobs/{system['id']}", headers=ADMIN).json()["status"] == "succeeded"
    [mine] = tenant_jobs(client, agent, "decay")
    assert (mine["parent_id"], mine["status"], mine["actor"]) == (system["id"], "succeeded", "api")
    # Weighed: all but the exempt and the recent one (the query leaves those out); archived: two.
    assert mine["result"] == {"weighed": 4, "archived": 2} and mine["progress"] == {"done": 4, "total": 4}
    statuses = {name: memory(client, agent, i)["status"] for name, i in ids.items()}
    assert statuses == {"faded": "archived", "trivial": "archived", "exempt": "active", "used": "active",
                        "recent": "active", "reinforced": "active"}
    assert tenant_jobs(client, base, "decay") == []  # nothing of the other tenant was idle

    records = {r["memory_ids"][0]: r for r in audit(client, agent, "decay")}
    assert set(records) == {ids["faded"], ids["trivial"]}
    faded = records[ids["faded"]]
    assert faded["job_id"] == mine["id"] and faded["before"] == {"status": "active", "importance": 0.5}
    after = faded["after"]
    assert (after["status"], after["reason"], after["floor"]) == ("archived", "decayed", 0.1)
    assert after["half_life_days"] == 90.0
    assert abs(after["decayed_importance"] - 0.5 * 0.5 ** (after["idle_days"] / 90)) < 1e-5
    assert 399 < after["idle_days"] < 401

    # Restored, it counts as used now: the next run leaves it alone.
    assert client.post(f"/v1/memories/{ids['faded']}/restore", params={"agent": agent}).json()["status"] == "active"
    again = client.post("/v1/jobs", json={"agent": agent, "kind": "decay"}).json()
    run(worker.drain)
    rerun = client.get(f"/v1/jobs/{again['id']}", params={"agent": agent}).json()
    assert rerun["result"] == {"weighed": 2, "archived": 0}  # used and reinforced; restored counts as fresh
    assert memory(client, agent, ids["faded"])["status"] == "active"

    # /metrics counts the queue from the database, and this process's outcomes.
    samples = scrape(client)
    assert sample(samples, "credence_jobs", status="succeeded", kind="decay") >= 3
    assert sample(samples, "credence_jobs", status="dead", kind="decay") >= 0
    assert sample(samples, "credence_job_outcomes_total", kind="decay", outcome="succeeded") >= 3


def test_memories_an_older_process_stored_without_stems_heal_through_the_stem_job(client, services, run, agent,
                                                                                    cypher):
    """In a rolling upgrade a process from before stems keeps writing after a new one's start-up gave
    every memory its stems and marked it done: what the old process stores has no `stems`, so keyword
    search cannot find it, until the stem job (scheduled hourly) gives it its stems. No restart."""
    hiked = store(client, agent, "We went hiking at the heronry on Sunday")
    kayak = store(client, agent, "The user sold the old kayak")
    other = f"t-{uuid.uuid4().hex[:12]}"
    theirs = store(client, other, "Hiking boots for sale")
    # As a process from before stems writes them: Memory nodes without `stems`, start-up's mark long set.
    cypher("MATCH (m:Memory) WHERE m.agent IN [$a, $o] REMOVE m.stems", a=agent, o=other)
    assert cypher("MATCH (c:CredenceMeta {key: 'memory_stems'}) RETURN count(c) AS marks") == [{"marks": 1}]
    assert keyword_ids(client, services, agent, "hikes") == [[], []]
    records = client.get("/v1/audit", params={"agent": agent}).json()["items"]

    worker = maintenance_worker(services)
    queued = client.post("/v1/jobs", json={"agent": agent, "kind": "stem"})
    assert queued.status_code == 201, queued.text
    assert run(worker.drain) >= 1
    done = client.get(f"/v1/jobs/{queued.json()['id']}", params={"agent": agent}).json()
    assert (done["status"], done["result"], done["progress"]) == ("succeeded", {"stemmed": 2}, {"done": 2, "total": 2})
    assert keyword_ids(client, services, agent, "hikes") == [[hiked["id"]], [hiked["id"]]]
    assert keyword_ids(client, services, agent, "kayaks") == [[kayak["id"]], [kayak["id"]]]
    assert keyword_ids(client, services, other, "hikes") == [[], []]  # the tenant's job stems only its own
    # It changes no belief: no audit record, the memories' versions as they were.
    assert client.get("/v1/audit", params={"agent": agent}).json()["items"] == records
    assert memory(client, agent, hiked["id"])["version"] == hiked["version"]

    # Run again, it finds nothing left.
    again = client.post("/v1/jobs", json={"agent": agent, "kind": "stem"}).json()
    run(worker.drain)
    assert client.get(f"/v1/jobs/{again['id']}", params={"agent": agent}).json()["result"] == {"stemmed": 0}

    # The scheduled system job fans out to the tenants that have memories without stems, only those.
    system = client.post("/v1/admin/jobs", json={"kind": "stem"}, headers=ADMIN)
    assert system.status_code == 201, system.text
    run(worker.drain)
    fanned = client.get(f"/v1/admin/jobs/{system.json()['id']}", headers=ADMIN).json()
    assert fanned["status"] == "succeeded" and fanned["result"]["tenants"] >= 1
    [child] = tenant_jobs(client, other, "stem")
    assert (child["parent_id"], child["status"], child["result"]) == (fanned["id"], "succeeded", {"stemmed": 1})
    assert keyword_ids(client, services, other, "hikes") == [[theirs["id"]], [theirs["id"]]]
    assert [j["id"] for j in tenant_jobs(client, agent, "stem")] == [again["id"], queued.json()["id"]]
