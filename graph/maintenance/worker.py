"""A worker: claims runnable jobs of the kinds it has handlers for, runs each under a lease it renews,
and ends it (docs/maintenance.md, "Workers"). Any number of workers, in any number of processes,
share one queue: the claim is atomic in the database, and each write of a job is fenced by its lease."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass

from graph.core.errors import CredenceError
from graph.core.tasks import cancel_and_wait
from graph.core.timeutil import utcnow
from graph.core.vocab import JOB_QUEUED
from graph.jobs import Claimed, Job, JobCancelled, JobQueue, LeaseLost, retry_at
from graph.jobs.rules import error_text
from graph.maintenance.context import JobContext
from graph.maintenance.registry import Handlers
from graph.observability.metrics import JOB_OUTCOMES, JOB_SECONDS, JOBS_RUNNING
from graph.store.gateway import GraphRunner, write_hook

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WorkerPolicy:
    concurrency: int = 1
    poll_interval: float = 2.0
    lease_seconds: float = 60.0
    backoff_seconds: float = 30.0
    backoff_max_seconds: float = 3_600.0


def worker_name() -> str:
    """Who holds a lease: host, process and a random part (a restarted process is another worker)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Worker:
    def __init__(self, runner: GraphRunner, queue: JobQueue, handlers: Handlers, policy: WorkerPolicy,
                 name: str | None = None) -> None:
        self.runner, self.queue, self.handlers, self.policy = runner, queue, handlers, policy
        self.name = name or worker_name()
        self._loop: asyncio.Task | None = None
        self._running: set[asyncio.Task] = set()
        self._wake = asyncio.Event()
        self._stopping = False

    def start(self) -> None:
        if self._loop is None:
            self._stopping = False
            self._loop = asyncio.create_task(self._run(), name=f"job-worker {self.name}")

    def wake(self) -> None:
        """Look for jobs now instead of at the next poll (a job was just enqueued here)."""
        self._wake.set()

    async def stop(self) -> None:
        """Stops claiming, and hands the jobs it runs back to the queue for another worker."""
        self._stopping = True
        await cancel_and_wait(self._loop)
        self._loop = None
        for task in list(self._running):
            await cancel_and_wait(task)

    async def drain(self) -> int:
        """Runs jobs until none is runnable, one at a time, in this call; answers how many it ran
        (what a test or a one-off maintenance script uses instead of the polling loop)."""
        ran = 0
        with contextlib.suppress(CredenceError):
            await self.queue.reap()
        while (claimed := await self.queue.claim(self.name, self.handlers.kinds(), self.policy.lease_seconds)):
            await self._execute(claimed)
            ran += 1
        return ran

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.queue.reap()
                while len(self._running) < self.policy.concurrency and not self._stopping:
                    claimed = await self.queue.claim(self.name, self.handlers.kinds(), self.policy.lease_seconds)
                    if claimed is None:
                        break
                    task = asyncio.create_task(self._execute(claimed), name=f"job {claimed.job.id}")
                    self._running.add(task)
                    task.add_done_callback(self._finished)
            except CredenceError as exc:  # the database is away: the jobs wait in it
                log.warning("job worker %s could not reach the queue: %s", self.name, exc)
            except Exception:  # a bug must not stop the worker for good
                log.exception("job worker %s: polling failed", self.name)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.policy.poll_interval)

    def _finished(self, task: asyncio.Task) -> None:
        self._running.discard(task)
        self._wake.set()  # a slot is free

    async def _execute(self, claimed: Claimed) -> None:
        job = claimed.job
        ctx = JobContext(claimed, self.queue, self.runner, self.name, self.policy.lease_seconds)
        started, outcome = time.perf_counter(), "lost"
        JOBS_RUNNING.labels(job.kind).inc()
        handler = self.handlers[job.kind]

        async def call() -> dict:
            write_hook.set(None)  # a job's writes are its own, never a request's (an Idempotency-Key's claim)
            return await handler(ctx, job.params)

        run = asyncio.create_task(call(), name=f"handler {job.kind} {job.id}")
        lost = asyncio.Event()
        beat = asyncio.create_task(self._renew(ctx, run, lost), name=f"lease {job.id}")
        try:
            outcome = await self._end(job, run, lost)
        except asyncio.CancelledError:
            # The worker stops: the job goes back to the queue for another worker, its attempt not counted.
            await cancel_and_wait(run)
            outcome = "released"
            with contextlib.suppress(CredenceError):
                await asyncio.shield(self.queue.release(job, self.name))
            raise
        except CredenceError as exc:  # the end could not be recorded: the lease runs out, the job is taken again
            log.warning("job %s: its end could not be recorded (%s); it will be taken again", job.id, exc)
        finally:
            await cancel_and_wait(beat)
            JOBS_RUNNING.labels(job.kind).dec()
            JOB_OUTCOMES.labels(job.kind, outcome).inc()
            JOB_SECONDS.labels(job.kind, outcome).observe(time.perf_counter() - started)

    async def _end(self, job: Job, run: asyncio.Task, lost: asyncio.Event) -> str:
        """Waits for the handler and records how its attempt ended; answers the outcome."""
        try:
            result = await asyncio.shield(run)
        except asyncio.CancelledError:
            if lost.is_set():
                return "lost"  # the heartbeat stopped the handler: another worker has the job now
            raise
        except JobCancelled:
            return "cancelled" if await self.queue.stopped(job, self.name) else "lost"
        except LeaseLost:
            return "lost"
        except Exception as exc:
            error = error_text(exc)
            log.warning("job %s (%s, attempt %d of %d) failed: %s", job.id, job.kind, job.attempts,
                        job.max_attempts, error)
            status = await self.queue.fail(job, self.name, error, retry_at(
                utcnow(), job.attempts, self.policy.backoff_seconds, self.policy.backoff_max_seconds))
            return "retried" if status == JOB_QUEUED else (status or "lost")
        return "succeeded" if await self.queue.complete(job, self.name, result) else "lost"

    async def _renew(self, ctx: JobContext, run: asyncio.Task, lost: asyncio.Event) -> None:
        """Renews the lease at a third of its length while the handler runs; if the lease is lost,
        stops the handler (its next write would be refused anyway)."""
        while not run.done():
            await asyncio.sleep(self.policy.lease_seconds / 3)
            try:
                held = await self.queue.heartbeat(ctx.job, self.name, self.policy.lease_seconds)
            except CredenceError as exc:
                log.warning("job %s: lease not renewed (%s); retrying", ctx.job_id, exc)
                continue
            if held is None:
                log.warning("job %s: lease lost (another worker has the job); stopping it here", ctx.job_id)
                lost.set()
                run.cancel()
                return
