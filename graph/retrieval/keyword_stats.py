"""What a large tenant's keyword scores are computed against: its number of memories and their
average length, read from the database (retrieval/keyword_stats) and kept per process for a short
while (CREDENCE_KEYWORD_STATS_TTL).

No write keeps these: a counter every write updated was one node per tenant that all its writers
locked in turn. Read at query time instead, they are what the database holds, whichever process
wrote it; kept for a few seconds, they may lag the tenant's latest writes, which moves scores
slightly (a term's weight and the length normalisation shift by the share of memories written
since) and never which memories are found. The term counts come from the postings themselves.
Concurrent searches of one tenant share one read. Once expired, they are read again beside the
search that noticed, which goes on with the expired ones: on a tenant of 10,000 memories the read
costs a search 30-90 ms (docs/benchmarks.md, 100k). Only statistics unread for STALE_TTLS times the
TTL, or never read, are read on the search path."""
from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

DEFAULT_TTL = 30.0
STALE_TTLS = 10  # expired statistics younger than this many TTLs serve while they are read again


@dataclass(frozen=True)
class TenantStats:
    memories: int
    words: int

    @property
    def average_words(self) -> float:
        return self.words / self.memories if self.memories > 0 and self.words > 0 else 1.0


class KeywordStats:
    def __init__(self, read: Callable[[str], Awaitable[TenantStats]], ttl_seconds: float = DEFAULT_TTL,
                 capacity: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.read, self.ttl, self.capacity, self.clock = read, ttl_seconds, capacity, clock
        self._held: OrderedDict[str, tuple[float, TenantStats]] = OrderedDict()
        self._reading: dict[str, asyncio.Task[TenantStats]] = {}

    async def of(self, agent: str) -> TenantStats:
        held = self._held.get(agent)
        if held is not None:
            expires, kept = held
            now = self.clock()
            if expires > now:
                return kept
            if now < expires + self.ttl * (STALE_TTLS - 1):
                self._refresh(agent)
                return kept
        return await asyncio.shield(self._refresh(agent))

    def _refresh(self, agent: str) -> asyncio.Task[TenantStats]:
        task = self._reading.get(agent)
        if task is None:
            # A task of its own, so that a search cancelled while it reads fails no other search.
            task = asyncio.ensure_future(self.read(agent))
            self._reading[agent] = task
            task.add_done_callback(lambda done: self._done(agent, done))
        return task

    def _done(self, agent: str, task: asyncio.Task[TenantStats]) -> None:
        if self._reading.get(agent) is task:
            del self._reading[agent]
        if task.cancelled() or task.exception() is not None or self.ttl <= 0:
            return  # a failure is the waiting searches' to raise (if any); the next search reads again
        self._held[agent] = (self.clock() + self.ttl, task.result())
        self._held.move_to_end(agent)
        while len(self._held) > self.capacity:
            self._held.popitem(last=False)
