"""Contention is not an outage (issue 13 item 4): a write that keeps colliding with concurrent
writes until the driver's retry time runs out is a 503 that says so, not "cannot be reached"."""
from __future__ import annotations

import asyncio
import json

from api.problems import unavailable_problem
from graph.core.errors import Contention
from graph.memories.model import Claim, NewMemory, Provenance
from graph.store.backends.connect import new_driver
from graph.store.gateway import GraphRunner, RetryPolicy
from graph.writes.service import WriteService
from tests.helpers import sample, scrape


def test_writes_that_keep_colliding_are_contention_not_an_outage(services, run, agent):
    """With no retry time, parallel claims on one slot collide at once on the optimistic backend
    (ArcadeDB reports its page conflicts as DeadlockDetected); on Neo4j the slot lock queues them.
    One WriteService per claim, as thirty processes would be: within one, claims on a slot take
    turns before the database (the next test)."""
    backend, settings = services.backend, services.settings.model_copy(update={"neo4j_max_transaction_retry_time": 0})

    async def burst():
        endpoint = backend.endpoint  # the local backend the session runs on
        driver = new_driver(settings, endpoint.bolt_uri, endpoint.user, endpoint.password)
        try:
            runner = GraphRunner(driver, services.runner.database, services.runner.registry)
            claims = [NewMemory(agent=agent, text=f"The project budget is ${i}",
                                claim=Claim(subject="project", predicate="budget_is", value=f"${i}"),
                                provenance=Provenance(source="user_explicit")) for i in range(30)]
            return await asyncio.gather(*(WriteService(runner, services.encoder, max_text_chars=1_000, max_batch=10)
                                          .store(c) for c in claims), return_exceptions=True)
        finally:
            await driver.close()

    outcomes = run(burst)
    failures = [o for o in outcomes if isinstance(o, BaseException)]
    assert all(isinstance(f, Contention) for f in failures), [type(f).__name__ for f in failures]
    assert len(failures) < len(outcomes)  # the slot did take writes
    if backend.kind == "arcadedb-embedded":
        assert failures, "30 parallel writes to one slot without retries all committed on the optimistic backend"
    answer = unavailable_problem(failures[0] if failures else Contention("x", public="y"))
    body = json.loads(answer.body)
    assert (answer.status_code, body["type"], answer.headers["Retry-After"]) == \
        (503, "urn:credence:problem:write-contention", answer.headers["Retry-After"])
    if failures:
        assert "colliding with concurrent writes" in body["detail"] and "cannot be reached" not in body["detail"]


def test_claims_on_one_slot_take_turns_in_one_process_instead_of_colliding(services, run, agent):
    """The same burst through one service, still with no retry time at all: its claims on the slot
    queue in the process (graph/beliefs/slot_queue.py), so none collides and every one commits, and
    the slot ends with one current belief."""
    backend = services.backend
    settings = services.settings.model_copy(update={"neo4j_max_transaction_retry_time": 0})

    async def burst():
        endpoint = backend.endpoint
        driver = new_driver(settings, endpoint.bolt_uri, endpoint.user, endpoint.password)
        try:
            runner = GraphRunner(driver, services.runner.database, services.runner.registry)
            runner.retry = RetryPolicy(read=0, write=0, background=0)
            writes = WriteService(runner, services.encoder, max_text_chars=1_000, max_batch=10)
            claims = [NewMemory(agent=agent, text=f"The project budget is ${i}",
                                claim=Claim(subject="project", predicate="budget_is", value=f"${i}"),
                                provenance=Provenance(source="user_explicit")) for i in range(30)]
            outcomes = await asyncio.gather(*(writes.store(c) for c in claims), return_exceptions=True)
            return outcomes, runner.collisions.counts, len(writes.slots)
        finally:
            await driver.close()

    outcomes, collisions, queued = run(burst)
    assert [type(o).__name__ for o in outcomes if isinstance(o, BaseException)] == []
    assert not collisions and queued == 0  # no retry was needed, and no idle slot is remembered
    active = [o for o in outcomes if o.memory.status == "active"]
    assert len(active) >= 1


def test_collisions_are_counted_by_unit_of_work_and_statement(client, services, run, agent):
    """Where writes collide is measured (the load test prints it, /metrics serves it): each retried
    collision is counted under the unit of work's first statement and the statement or commit that failed."""
    before = scrape(client)
    backend, settings = services.backend, services.settings.model_copy(update={"neo4j_max_transaction_retry_time": 0})

    async def burst():
        endpoint = backend.endpoint
        driver = new_driver(settings, endpoint.bolt_uri, endpoint.user, endpoint.password)
        try:
            runner = GraphRunner(driver, services.runner.database, services.runner.registry)
            runner.retry = RetryPolicy(read=5, write=20, background=5, first_delay=0.01)
            claims = [NewMemory(agent=agent, text=f"The project budget is ${i}",
                                claim=Claim(subject="project", predicate="budget_is", value=f"${i}"),
                                provenance=Provenance(source="user_explicit")) for i in range(12)]
            outcomes = await asyncio.gather(*(WriteService(runner, services.encoder, max_text_chars=1_000,
                                                           max_batch=10).store(c) for c in claims),
                                            return_exceptions=True)
            return outcomes, runner.collisions
        finally:
            await driver.close()

    outcomes, collisions = run(burst)
    assert [type(o).__name__ for o in outcomes if isinstance(o, BaseException)] == []  # retried until done
    if backend.kind == "arcadedb-embedded":  # optimistic: separate services on one slot do collide
        assert collisions.counts
    for (unit, statement, where), n in collisions.counts.items():
        assert unit.startswith(("beliefs/", "memories/")) and statement and where and n > 0
    assert all(f"at {s} on {w}: {n}" in collisions.report() for (_, s, w), n in collisions.counts.items())
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    for (unit, statement, where), n in collisions.counts.items():
        assert grew("credence_db_collisions_total", unit=unit, statement=statement, where=where) >= n
    # Every collision was retried (all writes landed); the service's own bookkeeping may add some.
    assert grew("credence_db_retries_total", reason="collision") >= sum(collisions.counts.values())
