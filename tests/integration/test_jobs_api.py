"""The durable job queue through the HTTP API, on both backends: priorities, progress and results,
backoff to the dead letter and retry, dependencies, idempotency keys, cancellation, concurrent
workers, lease loss, and tenant isolation (docs/maintenance.md).

The shared test service runs no worker (tests/conftest.py): each test registers the kinds it needs
and runs its own workers on the service's loop, so what runs when is the test's to say."""
from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from graph.core.errors import InvalidInput
from graph.jobs import JobCancelled, LeaseLost, NewJob
from graph.maintenance import Checkpoint, Handlers, JobContext, Worker, WorkerPolicy


def kind(name: str) -> str:
    return f"t_{name}_{uuid.uuid4().hex[:8]}"


def make_worker(services, handlers: dict, **policy) -> Worker:
    """A worker of the test's own kinds only (so it never runs another test's jobs), no backoff."""
    registry = Handlers(services.maintenance.queue)
    for name, handler in handlers.items():
        registry.register(name, handler, lambda params: None)
    return Worker(services.runner, services.maintenance.queue, registry,
                  WorkerPolicy(**{"backoff_seconds": 0.0, "backoff_max_seconds": 0.0, "lease_seconds": 30.0,
                                  "poll_interval": 0.05, **policy}))


def enqueue(client, agent: str, kind_: str, expect: int = 201, **body) -> dict:
    answer = client.post("/v1/jobs", json={"agent": agent, "kind": kind_, **body})
    assert answer.status_code == expect, answer.text
    return answer.json()


def job(client, agent: str, job_id: str) -> dict:
    answer = client.get(f"/v1/jobs/{job_id}", params={"agent": agent})
    assert answer.status_code == 200, answer.text
    return answer.json()


def wait_for(check, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (value := check()):
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_priority_progress_result_listing_and_tenant_isolation(client, services, run, agent):
    order_kind = kind("order")
    ran: list[int] = []

    async def handler(ctx: JobContext, params: dict) -> dict:
        ran.append(params["n"])
        await ctx.progress(1, 2)
        await ctx.progress(2, 2)
        return {"n": params["n"], "agent": ctx.agent, "actor": ctx.actor}

    worker = make_worker(services, {order_kind: handler})
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    low = enqueue(client, agent, order_kind, params={"n": 0}, priority=5)
    high = enqueue(client, agent, order_kind, params={"n": 1}, priority=1)
    lowest = enqueue(client, agent, order_kind, params={"n": 2}, priority=10)
    waiting = enqueue(client, agent, order_kind, params={"n": 3}, priority=1, run_at=later)
    assert (high["status"], high["attempts"], high["actor"]) == ("queued", 0, "api")
    assert high["progress"] == {"done": 0, "total": None}
    assert run(worker.drain) == 3
    assert ran == [1, 0, 2]  # priority 1 first, then 5, then 10; the one due in an hour waits
    done = job(client, agent, high["id"])
    assert (done["status"], done["attempts"], done["progress"], done["result"]) == \
        ("succeeded", 1, {"done": 2, "total": 2}, {"n": 1, "agent": agent, "actor": "api"})
    assert done["started_at"] <= done["finished_at"] and done["lease_owner"] is None and done["last_error"] is None
    assert job(client, agent, waiting["id"])["status"] == "queued"

    # Listed newest first, by status and kind, a page at a time.
    query = {"agent": agent, "status": "succeeded", "kind": order_kind, "limit": 2}
    first = client.get("/v1/jobs", params=query).json()
    second = client.get("/v1/jobs", params={**query, "cursor": first["next_cursor"]}).json()
    assert [j["id"] for j in first["items"] + second["items"]] == [lowest["id"], high["id"], low["id"]]
    assert second["next_cursor"] is None
    queued = client.get("/v1/jobs", params={"agent": agent, "status": ["queued", "running"]}).json()
    assert [j["id"] for j in queued["items"]] == [waiting["id"]]

    # Another tenant sees none of it, and can touch none of it.
    other = f"t-{uuid.uuid4().hex[:12]}"
    assert client.get(f"/v1/jobs/{high['id']}", params={"agent": other}).status_code == 404
    assert client.get("/v1/jobs", params={"agent": other}).json()["items"] == []
    assert client.post(f"/v1/jobs/{waiting['id']}/cancel", params={"agent": other}).status_code == 404
    assert client.post(f"/v1/jobs/{waiting['id']}/retry", params={"agent": other}).status_code == 404
    assert job(client, agent, waiting["id"])["status"] == "queued"
    # Nor can a job depend on another tenant's job.
    refused = client.post("/v1/jobs", json={"agent": other, "kind": order_kind, "depends_on": [waiting["id"]]})
    assert refused.status_code == 422 and "depends_on[0]" in refused.text
    assert client.post(f"/v1/jobs/{waiting['id']}/cancel", params={"agent": agent}).json()["status"] == "cancelled"


def test_bad_requests_are_problems_naming_the_field(client, agent):
    cases = [({"kind": "no_such_kind"}, "kind"), ({"kind": "expire", "priority": 0}, "priority"),
             ({"kind": "expire", "params": {"x": 1}}, "params.x"),
             ({"kind": "expire", "max_attempts": 0}, "max_attempts"),
             ({"kind": "expire", "depends_on": [str(uuid.uuid4())]}, "depends_on[0]"),
             ({"kind": "expire", "depends_on": ["nope"]}, "depends_on")]
    for body, field in cases:
        answer = client.post("/v1/jobs", json={"agent": agent, **body})
        assert answer.status_code == 422, (body, answer.text)
        assert answer.headers["content-type"] == "application/problem+json" and field in answer.text, answer.text
    assert client.get("/v1/jobs", params={"agent": agent, "status": "nope"}).status_code == 422
    assert client.get("/v1/jobs", params={"agent": agent, "cursor": "bm90IGEgY3Vyc29y"}).status_code == 422
    assert client.get(f"/v1/jobs/{uuid.uuid4()}", params={"agent": agent}).status_code == 404
    assert client.get("/v1/jobs", params={"agent": agent}).json() == {"count": 0, "items": [], "next_cursor": None}


def test_backoff_to_the_dead_letter_then_retry(client, services, run, agent):
    flaky = kind("flaky")
    fail = {"on": True}

    async def handler(ctx: JobContext, params: dict) -> dict:
        if fail["on"]:
            raise RuntimeError(f"boom on attempt {ctx.attempt}")
        return {"ok": True}

    worker = make_worker(services, {flaky: handler})
    doomed = enqueue(client, agent, flaky, max_attempts=3)
    assert run(worker.drain) == 3  # no backoff here: each retry is due at once
    dead = job(client, agent, doomed["id"])
    assert (dead["status"], dead["attempts"], dead["max_attempts"]) == ("dead", 3, 3)
    assert dead["last_error"] == "RuntimeError: boom on attempt 3" and dead["finished_at"] is not None
    listed = client.get("/v1/jobs", params={"agent": agent, "status": "dead"}).json()["items"]
    assert [j["id"] for j in listed] == [doomed["id"]]

    # With a backoff, a failed attempt waits base * 2^(attempts-1), +-10%.
    slow = make_worker(services, {flaky: handler}, backoff_seconds=60.0, backoff_max_seconds=3600.0)
    backed = enqueue(client, agent, flaky, max_attempts=5)
    assert run(slow.drain) == 1
    waiting = job(client, agent, backed["id"])
    wait = (datetime.fromisoformat(waiting["run_at"]) - datetime.fromisoformat(waiting["updated_at"])).total_seconds()
    assert waiting["status"] == "queued" and waiting["attempts"] == 1 and 54 <= wait <= 66
    assert waiting["last_error"] == "RuntimeError: boom on attempt 1"
    assert client.post(f"/v1/jobs/{backed['id']}/cancel", params={"agent": agent}).json()["status"] == "cancelled"

    # An operator retries the dead job once its cause is fixed: fresh attempts, and it succeeds.
    fail["on"] = False
    retried = client.post(f"/v1/jobs/{doomed['id']}/retry", params={"agent": agent}).json()
    assert (retried["status"], retried["attempts"], retried["finished_at"]) == ("queued", 0, None)
    assert run(worker.drain) == 1
    done = job(client, agent, doomed["id"])
    assert (done["status"], done["attempts"], done["result"]) == ("succeeded", 1, {"ok": True})
    assert done["last_error"] is None
    again = client.post(f"/v1/jobs/{doomed['id']}/retry", params={"agent": agent})
    assert again.status_code == 409 and again.headers["content-type"] == "application/problem+json"
    assert client.post(f"/v1/jobs/{doomed['id']}/cancel", params={"agent": agent}).status_code == 409


def test_dependencies_wait_resume_after_retry_and_cancel_with_what_they_wait_for(client, services, run, agent):
    chain = kind("chain")
    ran: list[str] = []
    failing: set[str] = set()

    async def handler(ctx: JobContext, params: dict) -> dict:
        if params["name"] in failing:
            raise RuntimeError("not yet")
        ran.append(params["name"])
        return {}

    worker = make_worker(services, {chain: handler})
    # b waits for a although b is more urgent; c waits for b.
    a = enqueue(client, agent, chain, params={"name": "a"}, priority=9)
    b = enqueue(client, agent, chain, params={"name": "b"}, priority=1, depends_on=[a["id"]])
    c = enqueue(client, agent, chain, params={"name": "c"}, priority=1, depends_on=[b["id"]])
    assert b["depends_on"] == [a["id"]] and b["waiting_for"] == [a["id"]]
    run(worker.drain)
    assert ran == ["a", "b", "c"] and job(client, agent, c["id"])["waiting_for"] == []

    # A dependency that dies holds its dependents back; retried and fixed, the chain goes on.
    failing.add("d")
    d = enqueue(client, agent, chain, params={"name": "d"}, max_attempts=1)
    e = enqueue(client, agent, chain, params={"name": "e"}, depends_on=[d["id"]])
    run(worker.drain)
    assert job(client, agent, d["id"])["status"] == "dead"
    held = job(client, agent, e["id"])
    assert (held["status"], held["waiting_for"]) == ("queued", [d["id"]])
    failing.clear()
    client.post(f"/v1/jobs/{d['id']}/retry", params={"agent": agent})
    run(worker.drain)
    assert ran[-2:] == ["d", "e"] and job(client, agent, e["id"])["status"] == "succeeded"

    # A cancelled dependency never succeeds: what waits for it, directly or not, is cancelled with it.
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    f = enqueue(client, agent, chain, params={"name": "f"}, run_at=later)
    g = enqueue(client, agent, chain, params={"name": "g"}, depends_on=[f["id"]])
    h = enqueue(client, agent, chain, params={"name": "h"}, depends_on=[g["id"]])
    assert client.post(f"/v1/jobs/{f['id']}/cancel", params={"agent": agent}).json()["status"] == "cancelled"
    for dependent in (g, h):
        gone = job(client, agent, dependent["id"])
        assert (gone["status"], gone["last_error"]) == ("cancelled", "a job it depends on was cancelled")
    late = client.post("/v1/jobs", json={"agent": agent, "kind": chain, "depends_on": [f["id"]]})
    assert late.status_code == 409, late.text


def test_an_idempotency_key_makes_one_job_even_under_concurrent_requests(client, agent):
    keyed = kind("keyed")
    client.app.state.services.maintenance.register(keyed, lambda ctx, params: None, lambda params: None)
    first = enqueue(client, agent, keyed, params={"x": 1}, key="nightly-1")
    second = enqueue(client, agent, keyed, expect=200, params={"x": 1}, key="nightly-1")
    assert second["id"] == first["id"] and second["key"] == "nightly-1"
    clash = client.post("/v1/jobs", json={"agent": agent, "kind": keyed, "params": {"x": 2}, "key": "nightly-1"})
    assert clash.status_code == 409, clash.text
    # Another tenant's same key is its own job.
    other = f"t-{uuid.uuid4().hex[:12]}"
    assert enqueue(client, other, keyed, params={"x": 1}, key="nightly-1")["id"] != first["id"]

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: client.post("/v1/jobs", json={"agent": agent, "kind": keyed,
                                                                        "key": "burst"}), range(8)))
    assert sorted(a.status_code for a in answers) == [200] * 7 + [201], [a.text for a in answers]
    assert len({a.json()["id"] for a in answers}) == 1
    listed = client.get("/v1/jobs", params={"agent": agent, "kind": keyed}).json()["items"]
    assert len(listed) == 2


def test_a_running_job_stops_at_its_next_checkpoint_when_cancelled(client, services, run, agent):
    long = kind("long")

    async def handler(ctx: JobContext, params: dict) -> dict:
        for i in range(1, 1001):
            await asyncio.sleep(0.02)
            await ctx.progress(i, 1000)
        return {}

    worker = make_worker(services, {long: handler})
    run(worker.start)
    try:
        started = enqueue(client, agent, long)
        wait_for(lambda: job(client, agent, started["id"])["progress"]["done"] >= 3)
        asked = client.post(f"/v1/jobs/{started['id']}/cancel", params={"agent": agent}).json()
        assert (asked["status"], asked["cancel_requested"]) == ("running", True)
        stopped = wait_for(lambda: (j := job(client, agent, started["id"]))["status"] == "cancelled" and j)
        assert 3 <= stopped["progress"]["done"] < 1000 and stopped["last_error"] == "cancelled while it ran"
    finally:
        run(worker.stop)


def test_concurrent_workers_run_each_job_once(client, services, run, agent):
    """Four workers, three jobs at a time each, on separate database sessions: every claim is atomic."""
    counted = kind("counted")
    runs: Counter[str] = Counter()

    async def handler(ctx: JobContext, params: dict) -> dict:
        runs[ctx.job_id] += 1
        await asyncio.sleep(0.01)
        return {}

    workers = [make_worker(services, {counted: handler}, concurrency=3) for _ in range(4)]
    ids = [enqueue(client, agent, counted, params={"i": i})["id"] for i in range(24)]

    async def all_drain() -> list[int]:
        return await asyncio.gather(*(w.drain() for w in workers))

    ran = run(all_drain)
    assert sum(ran) == 24 and runs == Counter(dict.fromkeys(ids, 1))
    statuses = {job(client, agent, i)["status"] for i in ids}
    assert statuses == {"succeeded"}


def test_a_lost_lease_is_taken_over_and_the_old_worker_can_no_longer_write(client, services, run, agent):
    """A worker that stops renewing (dead, or hung) loses the job when its lease runs out: another
    worker takes it over, and anything the first one still tries to write is refused (fenced)."""
    lease = kind("lease")
    queue = services.maintenance.queue
    seen: list[tuple[int, dict]] = []

    async def handler(ctx: JobContext, params: dict) -> dict:
        resumed = dict(ctx.state)
        seen.append((ctx.attempt, resumed))
        await ctx.progress(2, 2, {"step": 2})
        return {"resumed_from": resumed}

    taker = make_worker(services, {lease: handler})
    queued = enqueue(client, agent, lease)

    async def stall() -> JobContext:
        claimed = await queue.claim("stalled-worker", [lease], lease_seconds=0.5)
        assert claimed is not None and claimed.job.id == queued["id"]
        ctx = JobContext(claimed, queue, services.runner, "stalled-worker", 0.5)
        await ctx.progress(1, 2, {"step": 1})  # committed while its lease held
        return ctx

    stalled = run(stall)
    held = job(client, agent, queued["id"])
    assert (held["status"], held["lease_owner"], held["progress"]) == ("running", "stalled-worker",
                                                                       {"done": 1, "total": 2})
    assert run(taker.drain) == 0  # the lease still holds: nobody else takes it
    time.sleep(0.6)
    assert run(taker.drain) == 1
    done = job(client, agent, queued["id"])
    assert (done["status"], done["attempts"], done["result"]) == ("succeeded", 2, {"resumed_from": {"step": 1}})
    assert seen == [(2, {"step": 1})]

    async def late_write() -> None:
        await stalled.progress(2, 2)

    with pytest.raises(LeaseLost):
        run(late_write)


def test_the_domain_checks_its_own_input(services, run, agent):
    queue = services.maintenance.queue
    for bad, field in [(NewJob(agent="bad agent", kind="expire"), "agent"),
                       (NewJob(agent=agent, kind="expire", priority=11), "priority"),
                       (NewJob(agent=agent, kind="expire", key=" "), "key"),
                       (NewJob(agent=agent, kind="nope"), "kind")]:
        with pytest.raises(InvalidInput) as caught:
            run(queue.enqueue, bad, "api")
        assert caught.value.field == field
    with pytest.raises(InvalidInput, match="job_id"):
        run(queue.get, agent, "not-a-uuid")
    assert JobCancelled.__mro__[1].__name__ == "CredenceError"
    assert Checkpoint(1).state == {}


def test_concurrent_schedulers_enqueue_each_period_once(client, services, run):
    """Several schedulers (as in several processes) ticking at once: one job per period, whichever wins."""
    from graph.maintenance.scheduler import Schedule, Scheduler

    ticked = kind("ticked")
    services.maintenance.register(ticked, lambda ctx, params: None, lambda params: None)
    name = f"test-{uuid.uuid4().hex[:8]}"
    schedulers = [Scheduler(services.runner, services.maintenance.queue, [Schedule(name, "0 * * * *", ticked)], 1.0)
                  for _ in range(4)]
    at = datetime(2026, 5, 1, 10, 30, tzinfo=UTC)

    async def tick_all(now: datetime) -> list:
        return [job for jobs in await asyncio.gather(*(s.tick(now) for s in schedulers)) for job in jobs]

    assert run(tick_all, at) == []  # a schedule seen for the first time starts from its next period
    first = run(tick_all, at + timedelta(minutes=40))
    assert [(j.agent, j.params, j.actor) for j in first] == [("_system", {"period": "2026-05-01T11:00:00Z"},
                                                              "scheduler")]
    assert run(tick_all, at + timedelta(minutes=50)) == []  # the same period
    later = run(tick_all, at + timedelta(hours=3))  # two periods later: only the latest runs
    assert [j.params["period"] for j in later] == ["2026-05-01T13:00:00Z"]
    listed = client.get("/v1/admin/jobs", params={"kind": ticked},
                        headers={"Authorization": "Bearer test-admin-key"}).json()["items"]
    assert sorted(j["params"]["period"] for j in listed) == ["2026-05-01T11:00:00Z", "2026-05-01T13:00:00Z"]
    for job_ in listed:
        client.post(f"/v1/admin/jobs/{job_['id']}/cancel", headers={"Authorization": "Bearer test-admin-key"})


def test_a_read_key_sees_jobs_a_write_key_changes_them_and_neither_reaches_system_jobs(client, agent):
    from tests.integration.test_api_keys import bearer, issue

    reader, writer = bearer(issue(client, "read", [agent])), bearer(issue(client, "write", [agent]))
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    refused = client.post("/v1/jobs", json={"agent": agent, "kind": "expire", "run_at": later}, headers=reader)
    assert refused.status_code == 403 and "role is read" in refused.text
    queued = client.post("/v1/jobs", json={"agent": agent, "kind": "expire", "run_at": later}, headers=writer)
    assert queued.status_code == 201, queued.text
    job_id = queued.json()["id"]
    assert client.get(f"/v1/jobs/{job_id}", params={"agent": agent}, headers=reader).json()["id"] == job_id
    assert client.post(f"/v1/jobs/{job_id}/cancel", params={"agent": agent}, headers=reader).status_code == 403
    assert client.post(f"/v1/jobs/{job_id}/cancel", params={"agent": agent}, headers=writer).status_code == 200
    for key in (reader, writer):
        assert client.get("/v1/admin/jobs", headers=key).status_code == 403


def test_a_job_lands_with_the_transaction_that_asks_for_it_or_not_at_all(client, services, run, agent):
    """A service enqueues inside its own transaction: rolled back, the job never existed."""
    queue = services.maintenance.queue

    async def asks_then_fails(tx) -> None:
        enqueued = await queue.enqueue_in(tx, NewJob(agent=agent, kind="expire", key="rolled-back"), "api")
        raise RuntimeError(enqueued.job.id)

    with pytest.raises(RuntimeError) as failed:
        run(services.runner.write_tx, asks_then_fails)
    assert client.get(f"/v1/jobs/{failed.value.args[0]}", params={"agent": agent}).status_code == 404
    assert client.get("/v1/jobs", params={"agent": agent}).json()["items"] == []

    async def asks(tx) -> str:
        return (await queue.enqueue_in(tx, NewJob(agent=agent, kind="expire", key="rolled-back"), "api")).job.id

    kept = run(services.runner.write_tx, asks)  # the key is free again: nothing of the first one stayed
    assert client.get(f"/v1/jobs/{kept}", params={"agent": agent}).json()["key"] == "rolled-back"
    client.post(f"/v1/jobs/{kept}/cancel", params={"agent": agent})
