"""Keeps a local database child alive. It notices within a fraction of a second that the child
died, makes the gateway fail requests at once while it is gone (503 with Retry-After, instead of
every call waiting out the driver's connection and retry timeouts), and starts it again on the same
data directory, with backoff, until it answers. /health and /ready report what it sees.

The restart spawns the child from the event loop's thread: PR_SET_PDEATHSIG ties the child to the
thread that forked it, and the loop's thread lives as long as the service."""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from graph.core.tasks import cancel_and_wait
from graph.store.backends.connect import Backend, new_driver, wait_ready
from graph.store.gateway import GraphRunner
from graph.store.registry import Query

log = logging.getLogger(__name__)
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0


@dataclass
class BackendHealth:
    """What the supervisor knows of the database, for probes and for failing fast."""
    state: str = "up"  # up | restarting (died; a restart is under way or waiting its backoff)
    since: float = field(default_factory=time.time)  # when the state began (epoch seconds)
    restarts: int = 0
    last_exit_code: int | None = None
    last_error: str | None = None

    def unavailable(self) -> str | None:
        """Why requests cannot reach the database now, or None when they can."""
        if self.state == "up":
            return None
        detail = f"; last restart attempt failed: {self.last_error}" if self.last_error else ""
        return (f"the database process exited (code {self.last_exit_code}) {time.time() - self.since:.1f}s ago "
                f"and is being restarted{detail}")

    def as_dict(self) -> dict[str, object]:
        return {"state": self.state, "since": round(self.since, 3), "restarts": self.restarts,
                "last_exit_code": self.last_exit_code, "last_error": self.last_error}


class Supervisor:
    def __init__(self, backend: Backend, runner: GraphRunner, settings, ping: Query,
                 on_restarted: Callable[[], Awaitable[None]] | None = None) -> None:
        assert backend.child is not None and backend.lock is not None
        self.backend, self.runner, self.settings, self.ping = backend, runner, settings, ping
        self.child, self.lock = backend.child, backend.lock  # a backend keeps its child and lock for life
        self.on_restarted = on_restarted
        self.health = BackendHealth()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="backend-supervisor")

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None

    async def _watch(self) -> None:
        child = self.child
        while True:
            await asyncio.sleep(self.settings.supervise_interval)
            process = child.process
            if process is not None and process.poll() is not None:
                try:
                    await self._recover(process.returncode)
                except asyncio.CancelledError:
                    raise
                except Exception:  # never let the watcher die: the next tick tries again
                    log.exception("restarting the %s failed unexpectedly", child.name)

    async def _recover(self, exit_code: int) -> None:
        child = self.child
        self.health = BackendHealth(state="restarting", restarts=self.health.restarts, last_exit_code=exit_code)
        log.error("the %s exited with code %s; restarting it on %s", child.name, exit_code, child.root)
        backoff = BACKOFF_FIRST
        while True:
            try:
                await self._restart_once()
                self.health = BackendHealth(state="up", restarts=self.health.restarts + 1,
                                            last_exit_code=exit_code)
                log.warning("the %s is back (restart %d)", child.name, self.health.restarts)
                break
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.health.last_error = str(exc).splitlines()[0][:300]
                log.error("restarting the %s failed (%s); next attempt in %.1fs", child.name, exc, backoff)
                if child.process is not None and child.process.poll() is None:
                    await asyncio.to_thread(child.stop)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
        if self.on_restarted is not None:
            try:
                await self.on_restarted()
            except Exception:  # a slow first search is no reason to call the database down
                log.exception("after the restart, warming up failed")

    async def _restart_once(self) -> None:
        child, backend = self.child, self.backend
        if child.process is not None and child.process.stdin is not None:
            child.process.stdin.close()
        # The same ports when they are still free, so the driver's address stays right.
        child.reuse_ports()
        assert self.lock.fd is not None, "the service holds its data folder's lock while it runs"
        endpoint = child.start(inherit_fds=(self.lock.fd,))  # in the loop's thread: see the module doc
        if endpoint != backend.endpoint:
            old = backend.driver
            backend.driver = self.runner.driver = new_driver(self.settings, endpoint.bolt_uri, endpoint.user,
                                                             endpoint.password)
            backend.endpoint = endpoint
            await old.close()
        await wait_ready(backend, self.ping, self.settings.embedded_start_timeout)
