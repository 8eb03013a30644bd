"""Opens the configured backend and hands back one async driver. The only backend branch besides
search-index DDL lives here: where the database comes from.

- `NEO4J_URI` set: a Neo4j server someone else runs (production, docker-compose);
- `CREDENCE_BACKEND=neo4j`: a local Neo4j 5.26 Community the service starts from Maven artifacts;
- otherwise the embedded ArcadeDB (the zero-setup default)."""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from neo4j import AsyncDriver, AsyncGraphDatabase
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

from graph.core.errors import StartupError
from graph.observability.metrics import DB_POOL_MAX_SIZE
from graph.settings import Settings
from graph.store.backends.child_process import ChildDatabase, Endpoint
from graph.store.backends.datadir_lock import DataDirLock
from graph.store.backends.embedded_arcadedb import EmbeddedArcadeDB
from graph.store.backends.local_neo4j import LocalNeo4j
from graph.store.registry import Query

log = logging.getLogger(__name__)


@dataclass
class Backend:
    kind: str  # "neo4j" (a server at NEO4J_URI) | "neo4j-local" | "arcadedb-embedded"
    driver: AsyncDriver
    database: str
    child: ChildDatabase | None = None  # the database process this service owns, if any
    lock: DataDirLock | None = None
    endpoint: Endpoint | None = None  # where the child listens, and its credentials, as the driver was made for

    @property
    def is_neo4j(self) -> bool:
        return self.kind.startswith("neo4j")

    @property
    def arcadedb(self) -> EmbeddedArcadeDB:
        assert isinstance(self.child, EmbeddedArcadeDB)
        return self.child

    async def close(self) -> None:
        await self.driver.close()
        if self.child is not None:
            await asyncio.to_thread(self.child.stop)
        if self.lock is not None:
            self.lock.release()


def new_driver(settings: Settings, uri: str, user: str, password: str) -> AsyncDriver:
    # Neo4j's notifications ("property key does not exist" for every optional property a query
    # reads on a young graph) would flood the log at WARNING on each query: the linter in the test
    # suite is where Cypher gets checked, not the production log.
    DB_POOL_MAX_SIZE.set(settings.neo4j_max_pool_size)
    return AsyncGraphDatabase.driver(
        uri, auth=(user, password), max_connection_pool_size=settings.neo4j_max_pool_size,
        connection_timeout=settings.neo4j_connection_timeout,
        max_transaction_retry_time=settings.neo4j_max_transaction_retry_time,
        notifications_min_severity="OFF")


def launch(settings: Settings) -> Backend:
    """Start what must run in the caller's (long-lived) thread; `wait_ready` finishes the job.

    Split in two so the embedding model can load while the database's JVM boots."""
    if settings.neo4j_uri:
        assert settings.neo4j_password is not None
        driver = new_driver(settings, settings.neo4j_uri, settings.neo4j_user,
                         settings.neo4j_password.get_secret_value())
        return Backend(kind=settings.backend_kind, driver=driver, database=settings.neo4j_database)

    child: ChildDatabase
    if settings.backend_kind == "neo4j-local":
        child = LocalNeo4j(settings.data_dir, bolt_port=settings.local_neo4j_bolt_port,
                           http_port=settings.local_neo4j_http_port, heap=settings.local_neo4j_heap,
                           pagecache=settings.local_neo4j_pagecache)
    else:
        child = EmbeddedArcadeDB(settings.data_dir, bolt_port=settings.embedded_bolt_port,
                                 http_port=settings.embedded_http_port, heap=settings.embedded_heap)
    lock = DataDirLock(settings.data_dir)
    fd = lock.acquire()
    try:
        # The child inherits the lock, so a killed service's data stays locked until its JVM is gone.
        endpoint = child.start(inherit_fds=(fd,))
    except BaseException:
        lock.release()
        raise
    driver = new_driver(settings, endpoint.bolt_uri, endpoint.user, endpoint.password)
    return Backend(kind=settings.backend_kind, driver=driver, database=endpoint.database, child=child, lock=lock,
                   endpoint=endpoint)


async def wait_ready(backend: Backend, ping: Query, timeout: float) -> None:
    """Return once the database answers a query; fail clearly instead of hanging."""
    deadline = time.monotonic() + timeout
    if backend.child is not None:
        await asyncio.to_thread(backend.child.wait_port, timeout)
    last: Exception | None = None
    while time.monotonic() < deadline:
        if backend.child is not None:
            backend.child.check_alive()
        try:
            await backend.driver.execute_query(ping.text, database_=backend.database)
            return
        except AuthError as exc:
            raise StartupError(f"the graph backend refused the credentials: {exc.message}") from exc
        except (ServiceUnavailable, Neo4jError, OSError) as exc:
            last = exc
            await asyncio.sleep(0.25)
    where = backend.child.log_path if backend.child else "the NEO4J_URI server"
    raise StartupError(f"the graph backend did not answer within {timeout:.0f}s ({last}); check {where}")
