"""The one gateway to the graph: named queries in managed transactions, errors mapped once."""
from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from neo4j import AsyncDriver, AsyncManagedTransaction
from neo4j.exceptions import ConnectionPoolError, ConstraintError, ServiceUnavailable, SessionExpired, TransientError

from graph.core.errors import BackendUnavailable
from graph.store.registry import QueryRegistry

T = TypeVar("T")
log = logging.getLogger(__name__)

# ArcadeDB reports concurrent MERGEs on one unique key as a ConstraintError the driver does not
# retry (docs/backends.md §2.5). A genuine duplicate fails the same way every time and surfaces after
# the last attempt.
DUPLICATE_RETRIES = 6


class Tx:
    """A transaction handed to unit-of-work functions: it runs registered queries only."""

    def __init__(self, tx: AsyncManagedTransaction, registry: QueryRegistry) -> None:
        self._tx, self._registry = tx, registry

    async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        query = self._registry[name]
        result = await self._tx.run(query.text, query.bind(params))
        # Queries return maps and scalars, never nodes, so the rows need no record.data() walk
        # (a third of a search's client-side time went into it).
        return [dict(record.items()) async for record in result]


class GraphRunner:
    def __init__(self, driver: AsyncDriver, database: str, registry: QueryRegistry) -> None:
        self.driver, self.database, self.registry = driver, database, registry

    async def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return await self._execute("read", lambda tx: tx.run(name, **params))

    async def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return await self._execute("write", lambda tx: tx.run(name, **params))

    async def read_tx(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        return await self._execute("read", work)

    async def write_tx(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """Run `work` as one transaction: it commits whole or not at all, and is retried whole."""
        return await self._execute("write", work)

    async def _execute(self, mode: str, work: Callable[[Tx], Awaitable[T]]) -> T:
        async def unit(tx: AsyncManagedTransaction) -> T:
            return await work(Tx(tx, self.registry))

        for attempt in range(1, DUPLICATE_RETRIES + 1):
            try:
                async with self.driver.session(database=self.database) as session:
                    runner = session.execute_write if mode == "write" else session.execute_read
                    return await runner(unit)
            except ConstraintError as exc:
                if "Duplicated key" not in str(exc) or attempt == DUPLICATE_RETRIES:
                    raise
                log.debug("duplicate-key race, retrying (attempt %d)", attempt)
                await asyncio.sleep(random.uniform(0.005, 0.02) * attempt)
            except (ServiceUnavailable, SessionExpired, TransientError, ConnectionPoolError) as exc:
                # Unreachable, lost connection, retries exhausted, pool exhausted: "try again later".
                # Other driver errors (a consumed result, a misused transaction) are bugs, not
                # outages: they propagate and answer 500.
                raise BackendUnavailable(f"graph backend unavailable: {exc}") from exc
            except OSError as exc:
                raise BackendUnavailable(f"graph backend unreachable: {exc}") from exc
        raise AssertionError("unreachable")
