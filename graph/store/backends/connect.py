"""Opens the configured backend and hands back one async driver. The only backend branch besides
search-index DDL lives here: where the database comes from."""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from neo4j import AsyncDriver, AsyncGraphDatabase
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

from graph.store.backends.datadir_lock import DataDirLock
from graph.store.backends.embedded_arcadedb import EmbeddedArcadeDB
from graph.core.errors import StartupError
from graph.store.registry import Query
from graph.settings import Settings

log = logging.getLogger(__name__)


@dataclass
class Backend:
    kind: str  # "neo4j" | "arcadedb-embedded"
    driver: AsyncDriver
    database: str
    embedded: EmbeddedArcadeDB | None = None
    lock: DataDirLock | None = None

    async def close(self) -> None:
        await self.driver.close()
        if self.embedded is not None:
            await asyncio.to_thread(self.embedded.stop)
        if self.lock is not None:
            self.lock.release()


def launch(settings: Settings) -> Backend:
    """Start what must run in the caller's (long-lived) thread; `wait_ready` finishes the job.

    Split in two so the embedding model can load while the embedded JVM boots."""
    if settings.neo4j_uri:
        assert settings.neo4j_password is not None
        driver = AsyncGraphDatabase.driver(
            settings.neo4j_uri, auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
            max_connection_pool_size=settings.neo4j_max_pool_size,
            connection_timeout=settings.neo4j_connection_timeout,
            max_transaction_retry_time=settings.neo4j_max_transaction_retry_time)
        return Backend(kind="neo4j", driver=driver, database=settings.neo4j_database)

    lock = DataDirLock(settings.data_dir)
    fd = lock.acquire()
    embedded = EmbeddedArcadeDB(settings.data_dir, bolt_port=settings.embedded_bolt_port,
                                http_port=settings.embedded_http_port, heap=settings.embedded_heap)
    try:
        # The child inherits the lock, so a killed service's data stays locked until its JVM is gone.
        endpoint = embedded.start(inherit_fds=(fd,))
    except BaseException:
        lock.release()
        raise
    driver = AsyncGraphDatabase.driver(endpoint.bolt_uri, auth=(endpoint.user, endpoint.password),
                                       max_connection_pool_size=settings.neo4j_max_pool_size,
                                       max_transaction_retry_time=settings.neo4j_max_transaction_retry_time)
    return Backend(kind="arcadedb-embedded", driver=driver, database=endpoint.database,
                   embedded=embedded, lock=lock)


async def wait_ready(backend: Backend, ping: Query, timeout: float) -> None:
    """Return once the database answers a query; fail clearly instead of hanging."""
    deadline = time.monotonic() + timeout
    if backend.embedded is not None:
        await asyncio.to_thread(backend.embedded.wait_port, timeout)
    last: Exception | None = None
    while time.monotonic() < deadline:
        if backend.embedded is not None:
            backend.embedded.check_alive()
        try:
            await backend.driver.execute_query(ping.text, database_=backend.database)
            return
        except AuthError as exc:
            raise StartupError(f"the graph backend refused the credentials: {exc.message}") from exc
        except (ServiceUnavailable, Neo4jError, OSError) as exc:
            last = exc
            await asyncio.sleep(0.25)
    where = backend.embedded.log_path if backend.embedded else "the NEO4J_URI server"
    raise StartupError(f"the graph backend did not answer within {timeout:.0f}s ({last}); check {where}")
