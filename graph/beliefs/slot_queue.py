"""Writers of one belief slot in this process take turns before they reach the database.

Claims on one (agent, subject, predicate) all write that slot's lock node and its current belief.
On Neo4j the lock queues them inside the database; ArcadeDB is optimistic, so concurrent claims on a
slot run side by side and all but one fail at commit, then retry, each attempt costing a full
transaction (measured under load: most write collisions were claims on hot slots, docs/operations.md).
Queued here, a process sends the database one claim per slot at a time. Several processes sharing a
database still meet at the lock node, which keeps them correct; this only removes the collisions
one process would have with itself."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager


class SlotQueue:
    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._holders: dict[str, int] = {}  # waiting or holding, so an idle slot's lock is dropped

    @asynccontextmanager
    async def hold(self, keys: Iterable[str]) -> AsyncIterator[None]:
        """Every slot in `keys`, taken in sorted order (two batches naming the same slots cannot
        wait for each other), held until the block ends."""
        ordered = sorted(set(keys))
        for key in ordered:
            self._holders[key] = self._holders.get(key, 0) + 1
            self._locks.setdefault(key, asyncio.Lock())
        taken: list[str] = []
        try:
            for key in ordered:
                await self._locks[key].acquire()
                taken.append(key)
            yield
        finally:
            for key in taken:
                self._locks[key].release()
            for key in ordered:
                self._holders[key] -= 1
                if not self._holders[key]:
                    del self._holders[key], self._locks[key]

    def __len__(self) -> int:
        return len(self._locks)
