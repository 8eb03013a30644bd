"""The one gateway to the graph: named queries in managed transactions, errors mapped once."""
from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from neo4j import AsyncDriver, AsyncManagedTransaction
from neo4j.exceptions import ConnectionPoolError, ConstraintError, ServiceUnavailable, SessionExpired, TransientError

from graph.core.errors import BackendUnavailable, Contention
from graph.store.registry import SHAPES, QueryRegistry

T = TypeVar("T")
log = logging.getLogger(__name__)

# ArcadeDB reports concurrent MERGEs on one unique key as a ConstraintError the driver does not
# retry (docs/backends.md §2.5). A genuine duplicate fails the same way every time and surfaces after
# the last attempt.
DUPLICATE_RETRIES = 6
# Transient codes that mean "collided with another transaction" (deadlock, lock or page conflict;
# ArcadeDB reports its MVCC conflicts as DeadlockDetected too), not "the database is unavailable".
COLLISION_CODES = ("Neo.TransientError.Transaction.",)

# A step run first in every write transaction started in this context, and retried with it. The
# HTTP layer sets one per request that carries an Idempotency-Key (graph/idempotency): the record
# is then part of the request's write and commits with it or not at all.
write_hook: ContextVar[Callable[["Tx"], Awaitable[None]] | None] = ContextVar("write_hook", default=None)


class ResultShapeError(RuntimeError):
    """A query answered other than its `// returns:` header promised, or was called as another shape."""


class Tx:
    """A transaction handed to unit-of-work functions: it runs registered queries only.

    `one`, `optional`, `many`, `scalar` and `execute` each state the shape the caller relies on; it
    must be the one the query's file declares, and the rows must fit it."""

    def __init__(self, tx: AsyncManagedTransaction, registry: QueryRegistry) -> None:
        self._tx, self._registry = tx, registry

    async def one(self, name: str, **params: Any) -> dict[str, Any]:
        [row] = await self._shaped(name, "one", params)
        return row

    async def optional(self, name: str, **params: Any) -> dict[str, Any] | None:
        rows = await self._shaped(name, "optional", params)
        return rows[0] if rows else None

    async def many(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return await self._shaped(name, "many", params)

    async def scalar(self, name: str, **params: Any) -> Any:
        [row] = await self._shaped(name, "scalar", params)
        [value] = row.values()
        return value

    async def execute(self, name: str, **params: Any) -> None:
        await self._shaped(name, "write", params)

    async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """The rows of any query, checked against its declared shape."""
        return await self._shaped(name, None, params)

    async def _shaped(self, name: str, expected: str | None, params: dict[str, Any]) -> list[dict[str, Any]]:
        query = self._registry[name]
        if expected is not None and query.shape != expected:
            raise ResultShapeError(f"query {name} declares 'returns: {query.shape}' but was called for {expected!r}")
        result = await self._tx.run(query.text, query.bind(params))
        # Queries return maps and scalars, never nodes, so the rows need no record.data() walk
        # (a third of a search's client-side time went into it).
        rows = [dict(record.items()) async for record in result]
        _check_shape(query.name, query.shape, rows)
        return rows


def _check_shape(name: str, shape: str, rows: list[dict[str, Any]]) -> None:
    fits = {
        "one": len(rows) == 1,
        "optional": len(rows) <= 1,
        "many": True,
        "scalar": len(rows) == 1 and len(rows[0]) == 1,
        "write": not rows,
    }[shape]
    if not fits:
        columns = sorted(rows[0]) if rows else []
        raise ResultShapeError(f"query {name} declares 'returns: {shape}' ({SHAPES[shape]}) but answered "
                               f"{len(rows)} row(s) with columns {columns}")


class GraphRunner:
    def __init__(self, driver: AsyncDriver, database: str, registry: QueryRegistry) -> None:
        self.driver, self.database, self.registry = driver, database, registry
        # Set by the service: why the database cannot be reached now (its supervisor saw it die),
        # and how long one unit of work may take, retries included, before it is a 503.
        self.unavailable: Callable[[], str | None] = lambda: None
        self.timeout: float | None = None

    async def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return await self._bounded("read", lambda tx: tx.run(name, **params))

    async def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return await self._bounded("write", lambda tx: tx.run(name, **params))

    async def read_tx(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        return await self._bounded("read", work)

    async def write_tx(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """Run `work` as one transaction: it commits whole or not at all, and is retried whole."""
        return await self._bounded("write", work)

    async def _bounded(self, mode: str, work: Callable[[Tx], Awaitable[T]]) -> T:
        reason = self.unavailable()
        if reason is not None:
            raise BackendUnavailable(reason, public=f"{reason}; retry later")
        try:
            async with asyncio.timeout(self.timeout):
                return await self._execute(mode, work)
        except TimeoutError:
            # A write cut off here may or may not have committed, as with any lost connection:
            # an Idempotency-Key makes its retry safe.
            message = f"the graph database did not answer within {self.timeout:g}s (CREDENCE_BACKEND_TIMEOUT)"
            raise BackendUnavailable(message, public=message) from None

    async def _execute(self, mode: str, work: Callable[[Tx], Awaitable[T]]) -> T:
        hook = write_hook.get() if mode == "write" else None

        async def unit(tx: AsyncManagedTransaction) -> T:
            wrapped = Tx(tx, self.registry)
            if hook is not None:
                await hook(wrapped)
            return await work(wrapped)

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
            except TransientError as exc:
                if not (exc.code or "").startswith(COLLISION_CODES):
                    raise BackendUnavailable(f"graph backend unavailable: {exc}") from exc
                raise Contention(f"write contention: {exc}", public=(
                    "this write kept colliding with concurrent writes to the same beliefs until "
                    "NEO4J_MAX_TRANSACTION_RETRY_TIME ran out; the database is up: retry")) from exc
            except (ServiceUnavailable, SessionExpired, ConnectionPoolError) as exc:
                # Unreachable, lost connection, retries exhausted, pool exhausted: "try again later".
                # Other driver errors (a consumed result, a misused transaction) are bugs, not
                # outages: they propagate and answer 500.
                raise BackendUnavailable(f"graph backend unavailable: {exc}") from exc
            except OSError as exc:
                raise BackendUnavailable(f"graph backend unreachable: {exc}") from exc
        raise AssertionError("unreachable")
