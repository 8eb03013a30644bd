"""The job queue: durable Job nodes in the graph (docs/maintenance.md).

A job is enqueued in the transaction of the request that asks for it (`enqueue_in`), so it exists
exactly when that request's other writes do. Workers (graph/maintenance/worker.py) claim jobs
under a lease, write their effects in transactions fenced by that lease (`fence`, then the effects,
then `checkpoint`), and end them. Every statement but the claim, the reap, the depth count and
the schedule's lock names the job's tenant."""
from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from graph.core import cursor as keyset
from graph.core.checks import check_choice, check_limit, check_uuid
from graph.core.errors import CredenceError, InvalidInput, NotFound, StateConflict
from graph.core.keys import job_key
from graph.core.timeutil import iso, utcnow
from graph.core.vocab import JOB_CANCELLED, JOB_KINDS, JOB_QUEUED, JOB_RUNNING, JOB_STATUSES
from graph.jobs.model import MAX_JOB_PAGE, Claimed, Enqueued, Job, JobPage, NewJob
from graph.jobs.records import job_of, state_of
from graph.jobs.rules import check_job_agent, check_new_job, params_json
from graph.store.gateway import GraphRunner, Tx

CLAIM_CANDIDATES = 8  # queued jobs a claim locks and re-reads, so a few concurrent claimers each find one
REAP_LIMIT = 100


class LeaseLost(CredenceError):
    """This worker no longer holds the job's lease (it ran out and another worker took the job):
    nothing of the transaction that found out may land."""


class JobCancelled(CredenceError):
    """The job was asked to stop; raised at its next checkpoint, before that step's effects."""


class JobQueue:
    def __init__(self, runner: GraphRunner, *, default_max_attempts: int) -> None:
        self.runner = runner
        self.default_max_attempts = default_max_attempts
        # The kinds some handler serves (graph/maintenance/registry.py), each with its params check.
        self.checks: dict[str, Callable[[dict[str, Any]], None]] = {}

    def serve(self, kind: str, check: Callable[[dict[str, Any]], None]) -> None:
        """Accept jobs of `kind`; `check(params)` raises InvalidInput for params it cannot run with."""
        self.checks[kind] = check

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted(self.checks))

    # -- what callers ask for -------------------------------------------------------------------
    async def enqueue_in(self, tx: Tx, new: NewJob, actor: str) -> Enqueued:
        """Enqueues inside the caller's transaction: the job lands with the caller's writes or not at all."""
        job = check_new_job(new, self.kinds)
        self.checks[job.kind](job.params)
        if job.depends_on:
            found = {r["id"]: r["status"] for r in await tx.many("jobs/dependencies", agent=job.agent,
                                                                   ids=list(job.depends_on))}
            for i, dependency in enumerate(job.depends_on):
                if dependency not in found:
                    raise InvalidInput(f"depends_on[{i}]", f"names no job of agent {job.agent}: {dependency}")
                if found[dependency] == JOB_CANCELLED:
                    raise StateConflict(f"job {dependency} was cancelled: a job that waits for it could never run")
        now = utcnow()
        job_id = str(uuid.uuid4())
        row = await tx.one("jobs/enqueue", agent=job.agent, key=job_key(job.agent, job.key, job_id), id=job_id,
                           kind=job.kind, params=params_json(job.params), priority=job.priority,
                           max_attempts=job.max_attempts or self.default_max_attempts, run_at=iso(job.run_at or now),
                           now=iso(now), actor=actor, idempotency_key=job.key, depends_on=list(job.depends_on),
                           parent_id=job.parent_id)
        stored = job_of(row)
        if not row["created"] and (stored.kind, stored.params) != (job.kind, job.params):
            raise StateConflict(f"key {job.key!r} names job {stored.id}, of another kind or other params")
        return Enqueued(stored, bool(row["created"]))

    async def enqueue(self, new: NewJob, actor: str) -> Enqueued:
        return await self.runner.write_tx(lambda tx: self.enqueue_in(tx, new, actor))

    async def get(self, agent: str, job_id: str) -> Job:
        check_job_agent(agent)
        row = await self._optional("jobs/get", agent=agent, id=check_uuid(job_id, "job_id"))
        if row is None:
            raise NotFound("job", job_id)
        return job_of(row)

    async def list_jobs(self, agent: str, *, statuses: Sequence[str] | None = None,
                        kinds: Sequence[str] | None = None, limit: int = 50, cursor: str | None = None) -> JobPage:
        """The tenant's jobs, newest first, of any of `statuses` and `kinds` (None: all)."""
        check_job_agent(agent)
        chosen = _choices(statuses, "status", JOB_STATUSES)
        # The kinds served here, and the built-in ones (a job of a kind no longer served stays listable).
        known = tuple(sorted({*self.kinds, *JOB_KINDS}))
        chosen_kinds = _choices(kinds, "kind", known) if kinds is not None else None
        check_limit(limit, "limit", 1, MAX_JOB_PAGE)
        cursor_at, cursor_id = keyset.decode(cursor) if cursor is not None else (None, None)
        rows = await self.runner.read("jobs/list", agent=agent, statuses=chosen, kinds=chosen_kinds,
                                      cursor_at=cursor_at, cursor_id=cursor_id, limit=limit + 1)
        items = [job_of(r) for r in rows]
        more = len(items) > limit
        items = items[:limit]
        return JobPage(items, keyset.encode(items[-1].created_at, items[-1].id) if more else None)

    async def cancel(self, agent: str, job_id: str) -> Job:
        """A queued job is cancelled at once (and the queued jobs that wait for it with it); a running
        one stops at its next checkpoint. A finished job cannot be cancelled (StateConflict)."""
        check_job_agent(agent)
        job_id = check_uuid(job_id, "job_id")

        async def work(tx: Tx) -> Job:
            now = iso(utcnow())
            row = await tx.optional("jobs/cancel", agent=agent, id=job_id, now=now)
            if row is None:
                raise NotFound("job", job_id)
            if row["previous"] not in (JOB_QUEUED, JOB_RUNNING):
                raise StateConflict(f"job {job_id} is {row['previous']}: only a queued or running job can be cancelled")
            if row["previous"] == JOB_QUEUED:
                await tx.scalar("jobs/cancel_dependents", agent=agent, ids=[job_id], now=now)
            return job_of(row)

        return await self.runner.write_tx(work)

    async def retry(self, agent: str, job_id: str) -> Job:
        """A dead or cancelled job queued again with a fresh set of attempts; any other: StateConflict."""
        check_job_agent(agent)
        job_id = check_uuid(job_id, "job_id")

        async def work(tx: Tx) -> Job:
            row = await tx.optional("jobs/retry", agent=agent, id=job_id, now=iso(utcnow()))
            if row is None:
                raise NotFound("job", job_id)
            if row["job"]["status"] != JOB_QUEUED or row["previous"] == JOB_QUEUED:
                raise StateConflict(f"job {job_id} is {row['previous']}: only a dead or cancelled job can be retried")
            return job_of(row)

        return await self.runner.write_tx(work)

    # -- what workers do --------------------------------------------------------------------------
    async def claim(self, worker: str, kinds: Iterable[str], lease_seconds: float) -> Claimed | None:
        now = utcnow()
        row = await self._write_optional("jobs/queue/claim", kinds=sorted(kinds), now=iso(now), worker=worker,
                                         lease_until=iso(now + timedelta(seconds=lease_seconds)),
                                         candidates=CLAIM_CANDIDATES)
        return None if row is None else Claimed(job_of(row), state_of(row))

    async def reap(self) -> list[dict[str, Any]]:
        """Jobs whose worker stopped renewing its lease, queued again (or dead, or cancelled)."""
        async def work(tx: Tx) -> list[dict[str, Any]]:
            now = iso(utcnow())
            rows = await tx.many("jobs/queue/reap", now=now, limit=REAP_LIMIT)
            for row in rows:
                if row["status"] == JOB_CANCELLED:
                    await tx.scalar("jobs/cancel_dependents", agent=row["agent"], ids=[row["id"]], now=now)
            return rows
        return await self.runner.write_tx(work, kind="background")

    @staticmethod
    async def fence(tx: Tx, job: Job, worker: str) -> None:
        """First in every transaction a running job writes: LeaseLost when this worker no longer holds
        the job, JobCancelled when the job was asked to stop (either way, nothing of it lands)."""
        row = await tx.optional("jobs/fence", agent=job.agent, id=job.id, worker=worker)
        if row is None:
            raise LeaseLost(f"worker {worker} no longer holds job {job.id}")
        if row["cancel_requested"]:
            raise JobCancelled(f"job {job.id} was cancelled")

    @staticmethod
    async def checkpoint(tx: Tx, job: Job, worker: str, done: int, total: int | None, state: dict[str, Any],
                         lease_seconds: float) -> None:
        now = utcnow()
        await tx.execute("jobs/checkpoint", agent=job.agent, id=job.id, worker=worker, done=done, total=total,
                         state=params_json(state), lease_until=iso(now + timedelta(seconds=lease_seconds)),
                         now=iso(now))

    async def heartbeat(self, job: Job, worker: str, lease_seconds: float) -> bool | None:
        """Renews the lease: None when it is lost, else whether the job was asked to stop."""
        row = await self._write_optional("jobs/heartbeat", agent=job.agent, id=job.id, worker=worker,
                                         lease_until=iso(utcnow() + timedelta(seconds=lease_seconds)))
        return None if row is None else bool(row["cancel_requested"])

    async def complete(self, job: Job, worker: str, result: dict[str, Any]) -> bool:
        row = await self._write_optional("jobs/complete", agent=job.agent, id=job.id, worker=worker,
                                         result=params_json(result), now=iso(utcnow()))
        return row is not None

    async def fail(self, job: Job, worker: str, error: str, retry_at: datetime) -> str | None:
        """The job's status after a failed attempt (queued, dead or cancelled); None if the lease was lost."""
        async def work(tx: Tx) -> str | None:
            now = iso(utcnow())
            row = await tx.optional("jobs/fail", agent=job.agent, id=job.id, worker=worker, error=error,
                                    retry_at=iso(retry_at), now=now)
            if row is not None and row["status"] == JOB_CANCELLED:
                await tx.scalar("jobs/cancel_dependents", agent=job.agent, ids=[job.id], now=now)
            return None if row is None else row["status"]
        return await self.runner.write_tx(work, kind="background")

    async def stopped(self, job: Job, worker: str) -> bool:
        """A running job that saw its cancellation: cancelled, with the jobs that wait for it."""
        async def work(tx: Tx) -> bool:
            now = iso(utcnow())
            row = await tx.optional("jobs/stopped", agent=job.agent, id=job.id, worker=worker, now=now)
            if row is not None:
                await tx.scalar("jobs/cancel_dependents", agent=job.agent, ids=[job.id], now=now)
            return row is not None
        return await self.runner.write_tx(work, kind="background")

    async def release(self, job: Job, worker: str) -> None:
        await self.runner.write("jobs/release", agent=job.agent, id=job.id, worker=worker, now=iso(utcnow()))

    async def depth(self) -> list[dict[str, Any]]:
        """How many jobs of each status and kind, across tenants (for /metrics)."""
        return await self.runner.read("jobs/queue/depth")

    @staticmethod
    async def schedule_due(tx: Tx, name: str, period: datetime) -> bool:
        """True for exactly one caller per schedule and period (the caller then enqueues its job in `tx`)."""
        return bool(await tx.scalar("jobs/queue/schedule_period", schedule=name, period=iso(period)))

    async def _optional(self, name: str, **params: Any) -> dict[str, Any] | None:
        rows = await self.runner.read(name, **params)
        return rows[0] if rows else None

    async def _write_optional(self, name: str, **params: Any) -> dict[str, Any] | None:
        return await self.runner.write_tx(lambda tx: tx.optional(name, **params), kind="background")


def _choices(values: Sequence[str] | None, field: str, choices: Sequence[str]) -> list[str] | None:
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not values:
        raise InvalidInput(field, "must be a non-empty list, or null for every one")
    return list(dict.fromkeys(check_choice(v, f"{field}[{i}]", choices) for i, v in enumerate(values)))
