"""What the one gateway makes of failures: outages are 503s, programming errors are not, and a
background task survives an error."""
from __future__ import annotations

import asyncio

import pytest
from neo4j.exceptions import ResultNotSingleError

from graph.core.errors import BackendUnavailable


def test_a_driver_error_that_is_a_bug_is_not_reported_as_an_outage(services, run):
    async def work(tx):
        await tx.run("store/meta/ping")
        raise ResultNotSingleError("expected one record")  # what a misuse of a result raises

    with pytest.raises(ResultNotSingleError):
        run(services.runner.read_tx, work)


def test_the_access_flush_loop_survives_an_error_and_keeps_flushing(services, run):
    tracker = services.access
    calls, real_flush = [], tracker.flush

    async def flaky_flush():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("one bad flush")
        return await real_flush()

    async def watch():
        tracker.flush = flaky_flush
        try:
            for _ in range(100):
                if len(calls) >= 3:
                    break
                await asyncio.sleep(0.05)
            return len(calls), tracker._task is not None and not tracker._task.done()
        finally:
            del tracker.flush

    flushes, alive = run(watch)
    assert flushes >= 3 and alive


def test_an_unreachable_backend_is_still_an_outage(services, run):
    async def work(tx):
        raise OSError("connection reset")

    with pytest.raises(BackendUnavailable):
        run(services.runner.read_tx, work)
