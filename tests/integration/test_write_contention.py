"""Contention is not an outage (issue 13 item 4): a write that keeps colliding with concurrent
writes until the driver's retry time runs out is a 503 that says so, not "cannot be reached"."""
from __future__ import annotations

import asyncio
import json

from graph.core.errors import Contention
from graph.memories.model import Claim, NewMemory, Provenance
from graph.memories.service import MemoryService
from graph.store.backends.connect import new_driver
from graph.store.gateway import GraphRunner
from api.problems import unavailable_problem


def test_writes_that_keep_colliding_are_contention_not_an_outage(services, run, agent):
    """With no retry time, parallel claims on one slot collide at once on the optimistic backend
    (ArcadeDB reports its page conflicts as DeadlockDetected); on Neo4j the slot lock queues them."""
    backend, settings = services.backend, services.settings.model_copy(update={"neo4j_max_transaction_retry_time": 0})

    async def burst():
        endpoint = backend.endpoint  # the local backend the session runs on
        driver = new_driver(settings, endpoint.bolt_uri, endpoint.user, endpoint.password)
        try:
            runner = GraphRunner(driver, services.runner.database, services.runner.registry)
            memories = MemoryService(runner, services.encoder, max_text_chars=1_000, max_batch=10)
            claims = [NewMemory(agent=agent, text=f"The project budget is ${i}",
                                claim=Claim(subject="project", predicate="budget_is", value=f"${i}"),
                                provenance=Provenance(source="user_explicit")) for i in range(30)]
            return await asyncio.gather(*(memories.create(c) for c in claims), return_exceptions=True)
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
