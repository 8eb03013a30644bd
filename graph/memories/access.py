"""Access tracking off the response path: searches count what they return in memory, and a
background task writes the counts in one batched statement per tenant every `interval` seconds.

A search never waits for a write, and a burst of searches costs one write per tenant, not one
per search. The price: counts reach the graph up to `interval` late, and the counts of the last
interval are lost if the process is killed (a clean shutdown flushes them). The counts are
bookkeeping, never evidence, so that trade is right; docs/benchmarks.md measures it."""
from __future__ import annotations

import asyncio
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable

from graph.core.errors import CredenceError
from graph.core.tasks import cancel_and_wait
from graph.core.timeutil import iso, utcnow
from graph.observability.metrics import ACCESS_DROPPED, ACCESS_PENDING
from graph.store.gateway import GraphRunner, Tx

log = logging.getLogger(__name__)
# Memories per access-count transaction. One write over every memory a tenant's searches returned in
# an interval touched pages all over the Memory bucket and collided with the claims and feedback
# writing there (measured: docs/operations.md); short ones collide less and lose less when they do.
CHUNK = 50


class AccessTracker:
    def __init__(self, runner: GraphRunner, interval: float, enabled: bool = True) -> None:
        self.runner, self.interval, self.enabled = runner, interval, enabled
        self._pending: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self._queued = 0  # memories in _pending, for /metrics: counted as they come, not summed per scrape
        self._task: asyncio.Task | None = None

    def record(self, agent: str, ids: Iterable[str]) -> None:
        if self.enabled:
            counts = self._pending[agent]
            before = len(counts)
            counts.update(ids)
            self._queued += len(counts) - before
            ACCESS_PENDING.set(self._queued)

    def start(self) -> None:
        if self.enabled and self._task is None:
            self._task = asyncio.create_task(self._run(), name="access-tracker")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.flush()
            except Exception:  # a background task that dies is silent: log and go on
                log.exception("access-count flush failed; the next one runs in %.1f s", self.interval)

    async def flush(self) -> int:
        """Write what is pending; returns how many memories were updated."""
        pending, self._pending = self._pending, defaultdict(Counter)
        self._queued = 0
        ACCESS_PENDING.set(0)
        updated = 0
        for agent, counts in pending.items():
            hits = [{"id": i, "n": n} for i, n in sorted(counts.items()) if n]  # by id: ids are distinct
            for start in range(0, len(hits), CHUNK):
                chunk = hits[start:start + CHUNK]

                async def record(tx: Tx, chunk: list[dict[str, object]] = chunk, agent: str = agent) -> int:
                    return await tx.scalar("memories/record_access", agent=agent, hits=chunk, now=iso(utcnow()))

                try:
                    updated += await self.runner.write_tx(record, kind="background")
                except CredenceError as exc:  # advisory counts: log, drop, keep serving
                    log.warning("access counts for %d memories dropped: %s", len(chunk), exc)
                    ACCESS_DROPPED.inc(len(chunk))
        return updated

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
        await self.flush()
