"""What the one gateway makes of failures: outages are 503s, programming errors are not, a result
of another shape than its query declares is a clear error, and a background task survives an error."""
from __future__ import annotations

import asyncio

import pytest
from neo4j.exceptions import ResultNotSingleError

from graph.core.errors import BackendUnavailable
from graph.store.gateway import GraphRunner, ResultShapeError
from graph.store.registry import QueryRegistry


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


@pytest.fixture
def shaped(services, tmp_path):
    """A gateway over the real driver with a registry of three small queries."""
    (tmp_path / "t").mkdir()
    for name, shape, body in [("one", "one", "UNWIND range(1, $n) AS i RETURN i"),
                              ("scalar", "scalar", "UNWIND range(1, $n) AS i RETURN i, i AS twice"),
                              ("write", "write", "UNWIND range(1, $n) AS i RETURN i")]:
        (tmp_path / "t" / f"{name}.cypher").write_text(f"// params: n\n// returns: {shape}\n{body}\n")
    return GraphRunner(services.runner.driver, services.runner.database, QueryRegistry(tmp_path))


def test_a_query_answering_other_than_its_declared_shape_is_a_clear_error(shaped, run):
    assert run(shaped.read_tx, lambda tx: tx.one("t/one", n=1)) == {"i": 1}
    with pytest.raises(ResultShapeError, match=r"t/one declares 'returns: one' \(exactly one row\) but answered 2 row"):
        run(shaped.read_tx, lambda tx: tx.one("t/one", n=2))
    with pytest.raises(ResultShapeError, match="answered 0 row"):
        run(lambda: shaped.read("t/one", n=0))  # the untyped read checks the declaration too
    with pytest.raises(ResultShapeError,
                       match=r"one row of one column\) but answered 1 row\(s\) with columns \['i', 'twice'\]"):
        run(shaped.read_tx, lambda tx: tx.scalar("t/scalar", n=1))
    with pytest.raises(ResultShapeError, match="'returns: write' \\(no rows\\)"):
        run(lambda: shaped.write("t/write", n=1))


def test_a_call_for_another_shape_than_the_file_declares_is_refused(shaped, run):
    with pytest.raises(ResultShapeError, match="t/one declares 'returns: one' but was called for 'many'"):
        run(shaped.read_tx, lambda tx: tx.many("t/one", n=1))


def test_a_unit_of_work_that_outlasts_the_configured_time_is_an_outage(shaped, run):
    async def slow(tx):
        await tx.one("t/one", n=1)
        await asyncio.sleep(5)

    shaped.timeout = 0.3
    with pytest.raises(BackendUnavailable, match=r"did not answer within 0.3s \(CREDENCE_BACKEND_TIMEOUT\)"):
        run(shaped.read_tx, slow)


def test_a_database_known_to_be_down_fails_at_once_without_asking_it(shaped, run):
    asked = []

    async def work(tx):
        asked.append(1)
        return await tx.one("t/one", n=1)

    shaped.unavailable = lambda: "the database process exited (code -9) 0.4s ago and is being restarted"
    with pytest.raises(BackendUnavailable, match="is being restarted"):
        run(shaped.read_tx, work)
    assert asked == []
    shaped.unavailable = lambda: None
    assert run(shaped.read_tx, work) == {"i": 1}
