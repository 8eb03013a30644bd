"""The one gateway to the graph: named queries in managed transactions, errors mapped once."""
from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from neo4j import (
    READ_ACCESS,
    AsyncDriver,
    AsyncGraphDatabase,
    AsyncManagedTransaction,
    AsyncSession,
    AsyncTransaction,
    Bookmarks,
)
from neo4j.exceptions import (
    ClientError,
    ConnectionPoolError,
    ConstraintError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from graph.core.errors import BackendUnavailable, Contention, InvalidInput
from graph.observability.metrics import (
    DB_COLLISIONS,
    DB_RETRIES,
    DB_SESSIONS_IN_USE,
    DB_STATEMENT_SECONDS,
    DB_UNIT_SECONDS,
)
from graph.store.registry import SHAPES, QueryRegistry

T = TypeVar("T")
log = logging.getLogger(__name__)

# ArcadeDB reports concurrent MERGEs on one unique key as a ConstraintError the driver does not
# retry (docs/backends.md §2.5). A genuine duplicate fails the same way every time and surfaces after
# the last attempt.
DUPLICATE_RETRIES = 6
# When the duplicate is found while the statement runs rather than at commit, ArcadeDB sends only
# the wrapper's message, "Error executing Cypher command: <the statement>" (its log names the
# DuplicatedKeyException under it); Neo4j's own constraint messages never start so.
_ARCADEDB_WRAPPED = "Error executing Cypher command:"
RETRY_DELAY_MAX = 1.0  # seconds: the longest wait between two attempts after collisions
# Transient codes that mean "collided with another transaction" (deadlock, lock or page conflict;
# ArcadeDB reports its MVCC conflicts as DeadlockDetected too), not "the database is unavailable".
COLLISION_CODES = ("Neo.TransientError.Transaction.",)
# ArcadeDB, under concurrent inserts, once answered a read (a full-text lookup) with a record its
# index named but that was gone by the time it was fetched (a write that collided and rolled back):
# for a read, that is a collision too, retried within the read's retry time (docs/backends.md §6).
# A write meets it when it follows an edge to a record another transaction committed into a page
# this one holds a copy of (a thread's tail, memories/threads/append): its commit would fail on
# that page anyway, so it is a collision too, and the retry starts from the committed state.
VANISHED_RECORD = "Neo.ClientError.Statement.EntityNotFound"

# A step run first in every write transaction started in this context, and retried with it. The
# HTTP layer sets one per request that carries an Idempotency-Key (graph/idempotency): the record
# is then part of the request's write and commits with it or not at all.
write_hook: ContextVar[Callable[[Tx], Awaitable[None]] | None] = ContextVar("write_hook", default=None)

# What a unit of work is for decides how long it may keep retrying after collisions.
Kind = Literal["read", "write", "background"]

# Bookmarks the database rejects (malformed, or of another database), and the wait for one it has not
# reached (a cluster member behind the writer, or a bookmark from another deployment).
INVALID_BOOKMARK = "Neo.ClientError.Transaction.InvalidBookmark"  # also ...InvalidBookmarkMixture
BOOKMARK_TIMEOUT = "Neo.TransientError.Transaction.BookmarkTimeout"


@dataclass
class Causality:
    """One request's place in the database's history, for reading its own writes across processes
    (docs/scaling.md): the bookmarks its units of work start after (a consistency token the caller
    brought), and the bookmarks of the writes it committed (the token it takes away). Set per request
    by the HTTP layer; without one, a unit of work follows this process's own writes only."""
    after: frozenset[str] = frozenset()
    written: set[str] = field(default_factory=set)


causality: ContextVar[Causality | None] = ContextVar("causality", default=None)


@dataclass(frozen=True)
class RetryPolicy:
    """Seconds each kind of unit of work keeps retrying after collisions before it gives up
    (a request's write then answers 503 write-contention; background bookkeeping drops its batch),
    and the first wait between attempts (doubling up to RETRY_DELAY_MAX, with jitter). The driver's
    own first wait is a second: a collision on a slot lock clears in milliseconds."""
    read: float = 5.0
    write: float = 20.0
    background: float = 5.0
    first_delay: float = 0.05


_FILE = re.compile(r"in file '([A-Za-z]+)_\d")
_PAGE = re.compile(r"PageId\(\w+/(\d+)/")


def _where(exc: Exception) -> str:
    """What a collision was on, as far as the error says: ArcadeDB names the page's file (its
    type's bucket) or only the file's number (the data directory's file names carry it); Neo4j
    names its error (a deadlock on locks)."""
    text = str(exc)
    if named := _FILE.search(text):
        return named.group(1)
    if page := _PAGE.search(text):
        return f"file {page.group(1)}"
    return (getattr(exc, "code", None) or "-").rsplit(".", 1)[-1]


class Collisions:
    """Counts of retried collisions since start, by unit of work (its first statement), the
    statement that failed ("commit" when the commit did) and where (docs/operations.md); /metrics
    has the same counts, for all runners of the process, as credence_db_collisions_total."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str, str]] = Counter()

    def note(self, unit: str, statement: str, where: str) -> None:
        self.counts[(unit, statement, where)] += 1
        DB_COLLISIONS.labels(unit, statement, where).inc()

    def report(self) -> str:
        return "; ".join(f"{unit} at {statement} on {where}: {n}"
                         for (unit, statement, where), n in self.counts.most_common())


class _Backoff:
    """One unit of work's retries under a policy: whether its retry time is left, and the wait
    before the next attempt (doubling from the first delay up to RETRY_DELAY_MAX, with jitter).
    Without a policy no time is left: the driver has done the retrying."""

    def __init__(self, policy: RetryPolicy | None, mode: Kind) -> None:
        self.policy, self.delay = policy, 0.0
        self.budget = getattr(policy, mode) if policy is not None else 0.0
        self.started = asyncio.get_running_loop().time()

    def left(self) -> bool:
        return self.policy is not None and asyncio.get_running_loop().time() - self.started < self.budget

    async def wait(self) -> None:
        assert self.policy is not None
        self.delay = min(max(self.delay * 2, self.policy.first_delay), RETRY_DELAY_MAX)
        await asyncio.sleep(self.delay * random.uniform(0.5, 1.5))


class ResultShapeError(RuntimeError):
    """A query answered other than its `// returns:` header promised, or was called as another shape."""


class Tx:
    """A transaction handed to unit-of-work functions: it runs registered queries only.

    `one`, `optional`, `many`, `scalar` and `execute` each state the shape the caller relies on; it
    must be the one the query's file declares, and the rows must fit it."""

    def __init__(self, tx: AsyncManagedTransaction | AsyncSession | AsyncTransaction, registry: QueryRegistry) -> None:
        self._tx, self._registry = tx, registry
        self.statements: list[str] = []  # names run so far, for the collision counts
        self.failed_here = False  # a statement (not the commit) raised the transient error

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
        self.statements.append(name)
        started, outcome = time.perf_counter(), "error"
        try:
            result = await self._tx.run(query.text, query.bind(params))
            # Queries return maps and scalars, never nodes, so the rows need no record.data() walk
            # (a third of a search's client-side time went into it).
            rows = [dict(record.items()) async for record in result]
            _check_shape(query.name, query.shape, rows)
            outcome = "ok"
            return rows
        finally:
            DB_STATEMENT_SECONDS.labels(name, outcome).observe(time.perf_counter() - started)


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


def duplicate_key(exc: ConstraintError) -> bool:
    """Whether a constraint error is ArcadeDB's answer to concurrent MERGEs of one key (§2.5)."""
    return "Duplicated key" in str(exc) or (exc.message or "").startswith(_ARCADEDB_WRAPPED)


class GraphRunner:
    def __init__(self, driver: AsyncDriver, database: str, registry: QueryRegistry, *,
                 retry: RetryPolicy | None = None, timeout: float | None = None) -> None:
        self.driver, self.database, self.registry = driver, database, registry
        # How long one unit of work may take, retries included, before it is a 503.
        self.timeout = timeout
        # None: the driver's own retry settings (NEO4J_MAX_TRANSACTION_RETRY_TIME, one second first).
        self.retry = retry
        # Why the database cannot be reached now: set by the supervisor of a database process this
        # service owns (it saw it die); an external database is never known down in advance.
        self.unavailable: Callable[[], str | None] = lambda: None
        self.collisions = Collisions()
        # Every session of this process follows the process's own latest writes (the driver's
        # bookmarks), so a cluster member serving a read has applied them first; across processes a
        # request carries its Causality.
        self.bookmarks = AsyncGraphDatabase.bookmark_manager()

    async def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """One read statement, run as its own transaction (auto-commit, see _execute)."""
        return await self._bounded("read", lambda tx: tx.run(name, **params), single=True)

    async def read_one(self, name: str, **params: Any) -> dict[str, Any]:
        """One read statement that answers exactly one row (`returns: one`), as `read`."""
        return await self._bounded("read", lambda tx: tx.one(name, **params), single=True)

    async def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return await self._bounded("write", lambda tx: tx.run(name, **params))

    async def read_tx(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        return await self._bounded("read", work)

    async def write_tx(self, work: Callable[[Tx], Awaitable[T]], kind: Kind = "write") -> T:
        """Run `work` as one transaction: it commits whole or not at all, and is retried whole.
        `kind="background"`: bookkeeping off the request path, retried for its own bounded time."""
        return await self._bounded(kind, work)

    @asynccontextmanager
    async def holding(self, name: str, **params: Any) -> AsyncIterator[Any]:
        """Runs the write statement `name` (`returns: scalar`) in a transaction kept open until the block
        ends, and yields its value: the locks it took are held meanwhile, for other processes on the same
        database (start-up's lock, graph/store/schema.py). Commits when the block ends; the database
        drops the locks too if this process dies. Not retried: for start-up only, before requests."""
        async with self.driver.session(database=self.database) as session:
            tx = await session.begin_transaction()
            try:
                value = await Tx(tx, self.registry).scalar(name, **params)
                yield value
            except BaseException:
                await tx.rollback()
                raise
            await tx.commit()

    async def _bounded(self, mode: Kind, work: Callable[[Tx], Awaitable[T]], single: bool = False) -> T:
        reason = self.unavailable()
        if reason is not None:
            raise BackendUnavailable(reason, public=f"{reason}; retry later")
        started, outcome = time.perf_counter(), "error"
        try:
            async with asyncio.timeout(self.timeout):
                answer = await self._execute(mode, work, single)
            outcome = "ok"
            return answer
        except TimeoutError:
            # A write cut off here may or may not have committed, as with any lost connection:
            # an Idempotency-Key makes its retry safe.
            message = f"the graph database did not answer within {self.timeout:g}s (CREDENCE_BACKEND_TIMEOUT)"
            raise BackendUnavailable(message, public=message) from None
        finally:
            DB_UNIT_SECONDS.labels(mode, outcome).observe(time.perf_counter() - started)

    async def _execute(self, mode: Kind, work: Callable[[Tx], Awaitable[T]], single: bool = False) -> T:
        hook = write_hook.get() if mode == "write" else None
        last: list[Tx] = []  # the latest attempt's statements, to say where a collision happened

        async def unit(tx: AsyncManagedTransaction | AsyncSession) -> T:
            wrapped = Tx(tx, self.registry)
            last[:] = [wrapped]
            if hook is not None:
                await hook(wrapped)
            try:
                return await work(wrapped)
            except (TransientError, ClientError):
                wrapped.failed_here = True
                raise

        # With a policy, the driver makes one attempt and this loop retries, so that each
        # collision is seen (and counted) and the waits are the policy's; without one, the driver
        # retries for NEO4J_MAX_TRANSACTION_RETRY_TIME.
        config: dict[str, Any] = {"max_transaction_retry_time": 0} if self.retry is not None else {}
        if mode == "read":
            config["default_access_mode"] = READ_ACCESS
        held = causality.get()
        if held is not None and held.after:
            config["bookmarks"] = Bookmarks.from_raw_values(held.after)
        backoff, duplicates = _Backoff(self.retry, mode), 0
        while True:
            try:
                # Each session holds at most one pooled connection while it runs (the driver publishes
                # no pool statistics: this is what can be said of the pool from outside).
                with DB_SESSIONS_IN_USE.track_inprogress():
                    async with self.driver.session(database=self.database, bookmark_manager=self.bookmarks,
                                                   **config) as session:
                        if single and self.retry is not None:
                            # One read statement is a transaction by itself: auto-commit sends it in one
                            # round trip, where a managed transaction adds BEGIN's and COMMIT's (about a
                            # millisecond per search query, docs/benchmarks.md). This loop retries it.
                            return await unit(session)
                        runner = session.execute_read if mode == "read" else session.execute_write
                        answer = await runner(unit)
                        if held is not None and mode != "read":
                            held.written.update((await session.last_bookmarks()).raw_values)
                        return answer
            except ConstraintError as exc:
                duplicates += 1
                if not duplicate_key(exc) or duplicates == DUPLICATE_RETRIES:
                    raise
                log.debug("duplicate-key race, retrying (attempt %d)", duplicates)
                self._retried(last, hook is not None, "duplicate_key")
                await asyncio.sleep(random.uniform(0.005, 0.02) * duplicates)
            except ClientError as exc:
                if (exc.code or "").startswith(INVALID_BOOKMARK) and held is not None and held.after:
                    raise InvalidInput("consistency_token", "names no point in this database's history "
                                       "(a token from another Credence deployment, or altered)") from exc
                if exc.code != VANISHED_RECORD or not backoff.left():
                    raise
                if last:
                    self._collided(last[-1], hook is not None, exc)
                self._retried(last, hook is not None, "vanished_record")
                await backoff.wait()
            except TransientError as exc:
                if exc.code == BOOKMARK_TIMEOUT:
                    message = ("the database has not yet applied the writes the request's consistency token "
                               "names; retry")
                    raise BackendUnavailable(f"{message}: {exc}", public=message) from exc
                if not (exc.code or "").startswith(COLLISION_CODES):
                    raise BackendUnavailable(f"graph backend unavailable: {exc}") from exc
                if last:
                    self._collided(last[-1], hook is not None, exc)
                log.debug("collision, retrying: %s", exc)
                if backoff.left():
                    self._retried(last, hook is not None, "collision")
                    await backoff.wait()
                    continue
                raise Contention(f"write contention: {exc}", public=(
                    "this write kept colliding with concurrent writes to the same beliefs until its retry "
                    "time (CREDENCE_WRITE_RETRY_TIME) ran out; the database is up: retry")) from exc
            except (ServiceUnavailable, SessionExpired) as exc:
                # A lost connection is retried within the same budget, unless the database is known down.
                if self.unavailable() is None and backoff.left():
                    self._retried(last, hook is not None, "connection")
                    await backoff.wait()
                    continue
                raise BackendUnavailable(f"graph backend unavailable: {exc}") from exc
            except ConnectionPoolError as exc:
                # Unreachable, lost connection, retries exhausted, pool exhausted: "try again later".
                # Other driver errors (a consumed result, a misused transaction) are bugs, not
                # outages: they propagate and answer 500.
                raise BackendUnavailable(f"graph backend unavailable: {exc}") from exc
            except OSError as exc:
                raise BackendUnavailable(f"graph backend unreachable: {exc}") from exc

    def _collided(self, attempt: Tx, hooked: bool, exc: Exception) -> None:
        """Counts one collision of `attempt`, which failed at a statement or else at its commit."""
        statement = attempt.statements[-1] if attempt.failed_here else "commit"
        self.collisions.note(_unit(attempt, hooked), statement, _where(exc))

    @staticmethod
    def _retried(last: list[Tx], hooked: bool, reason: str) -> None:
        """Counts one more attempt of the unit whose latest attempt is `last` (for /metrics)."""
        DB_RETRIES.labels(_unit(last[-1], hooked) if last else "-", reason).inc()


def _unit(attempt: Tx, hooked: bool) -> str:
    """A unit of work's name: its first statement, after the idempotency claim a hook runs first."""
    own = attempt.statements[1:] if hooked else attempt.statements
    return own[0] if own else (attempt.statements[0] if attempt.statements else "-")
