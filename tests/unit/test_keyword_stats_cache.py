"""A large tenant's keyword statistics, read from the database and kept per process for a while
(graph/retrieval/keyword_stats.py): kept for the TTL and refreshed beside the searches after it (read
on the search path only when long unread), one read shared by concurrent searches, a failed or
cancelled read kept by no one."""
from __future__ import annotations

import asyncio

import pytest

from graph.retrieval.keyword_stats import STALE_TTLS, KeywordStats, TenantStats


class Database:
    def __init__(self) -> None:
        self.counts = {"a": TenantStats(4, 20), "b": TenantStats(2, 6)}
        self.reads: list[str] = []
        self.gate: asyncio.Event | None = None
        self.fail = False

    async def read(self, agent: str) -> TenantStats:
        self.reads.append(agent)
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise ConnectionError("down")
        return self.counts[agent]


def test_statistics_are_kept_for_the_ttl_per_tenant_then_read_again_off_the_search_path():
    db, now = Database(), [0.0]
    stats = KeywordStats(db.read, ttl_seconds=30, clock=lambda: now[0])

    async def scenario():
        assert await stats.of("a") == TenantStats(4, 20)
        assert (await stats.of("a")).average_words == 5.0
        db.counts["a"] = TenantStats(5, 30)
        now[0] = 29.9
        assert await stats.of("a") == TenantStats(4, 20)  # still within the TTL: as read
        assert await stats.of("b") == TenantStats(2, 6)  # another tenant is read for itself
        assert db.reads == ["a", "b"]
        now[0] = 30.0
        db.gate = asyncio.Event()
        # Expired: the search goes on with what was read, and one read refreshes it beside the search.
        assert await stats.of("a") == TenantStats(4, 20)
        assert await stats.of("a") == TenantStats(4, 20)
        await asyncio.sleep(0)
        assert db.reads == ["a", "b", "a"]
        db.gate.set()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert await stats.of("a") == TenantStats(5, 30)
        db.gate = None
        # Long unread (past STALE_TTLS times the TTL): read again before the search goes on.
        db.counts["a"] = TenantStats(6, 36)
        now[0] = 30.0 + 30 * STALE_TTLS + 0.1
        assert await stats.of("a") == TenantStats(6, 36)
    asyncio.run(scenario())
    assert db.reads == ["a", "b", "a", "a"]


def test_a_ttl_of_zero_reads_every_time_and_an_empty_tenant_averages_one_word():
    db = Database()
    db.counts["c"] = TenantStats(0, 0)
    stats = KeywordStats(db.read, ttl_seconds=0)

    async def scenario():
        for _ in range(3):
            assert (await stats.of("c")).average_words == 1.0
    asyncio.run(scenario())
    assert db.reads == ["c", "c", "c"]


def test_concurrent_searches_share_one_read_and_a_cancelled_one_fails_no_other():
    db = Database()
    stats = KeywordStats(db.read, ttl_seconds=30)

    async def scenario():
        db.gate = asyncio.Event()
        first = asyncio.ensure_future(stats.of("a"))
        others = [asyncio.ensure_future(stats.of("a")) for _ in range(4)]
        await asyncio.sleep(0)
        first.cancel()  # the search that started the read goes away
        await asyncio.sleep(0)
        db.gate.set()
        assert await asyncio.gather(*others) == [TenantStats(4, 20)] * 4
        with pytest.raises(asyncio.CancelledError):
            await first
    asyncio.run(scenario())
    assert db.reads == ["a"]


def test_a_failed_read_is_raised_to_its_searches_and_not_kept():
    db = Database()
    stats = KeywordStats(db.read, ttl_seconds=30)

    async def scenario():
        db.fail = True
        waiting = await asyncio.gather(stats.of("a"), stats.of("a"), return_exceptions=True)
        assert [type(e) for e in waiting] == [ConnectionError, ConnectionError]
        db.fail = False
        assert await stats.of("a") == TenantStats(4, 20)
    asyncio.run(scenario())
    assert db.reads == ["a", "a"]
