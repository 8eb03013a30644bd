"""Request and response models of /v1/jobs and /v1/admin/jobs (docs/maintenance.md)."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field, StrictInt

from api.schemas.common import Agent, Instant, Request
from graph.core.checks import MAX_REASON_CHARS
from graph.core.vocab import JOB_STATUSES
from graph.jobs import DEFAULT_PRIORITY, MAX_ATTEMPTS_LIMIT, PRIORITY_HIGHEST, PRIORITY_LOWEST, Job, NewJob
from graph.jobs.model import MAX_DEPENDENCIES, MAX_KEY_CHARS

JobStatus = Literal[JOB_STATUSES]  # type: ignore[valid-type]
KIND_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"


class SystemJobCreate(Request):
    kind: str = Field(max_length=64, pattern=KIND_PATTERN, description="What the job does: expire, decay, stem, or "
                                                                       "another kind a handler serves.")
    params: dict[str, Any] = Field(default_factory=dict, description="The kind's parameters (docs/maintenance.md).")
    priority: StrictInt = Field(DEFAULT_PRIORITY, ge=PRIORITY_HIGHEST, le=PRIORITY_LOWEST,
                                description=f"{PRIORITY_HIGHEST} runs first, {PRIORITY_LOWEST} last.")
    key: str | None = Field(None, min_length=1, max_length=MAX_KEY_CHARS, description=
                            "Idempotency key: a second request with the same key answers the first one's job (200).")
    depends_on: list[UUID] = Field(default_factory=list, max_length=MAX_DEPENDENCIES, description=
                                   "Jobs of the same tenant that must succeed first.")
    max_attempts: StrictInt | None = Field(None, ge=1, le=MAX_ATTEMPTS_LIMIT, description=
                                           "Attempts before the job is dead; default CREDENCE_JOBS_MAX_ATTEMPTS.")
    run_at: Instant | None = Field(None, description="Not before this instant; default now.")

    def to_domain(self, agent: str) -> NewJob:
        return NewJob(agent=agent, kind=self.kind, params=self.params, priority=self.priority, key=self.key,
                      depends_on=tuple(str(d) for d in self.depends_on), max_attempts=self.max_attempts,
                      run_at=self.run_at)


class JobCreate(SystemJobCreate):
    agent: Agent = Field(description="The tenant the job works on.")


class ProgressOut(BaseModel):
    done: int
    total: int | None = Field(description="null while the job does not know yet.")


class JobOut(BaseModel):
    id: str
    agent: str = Field(description="The tenant; `_system` for a scheduled job that fans out to tenants.")
    kind: str
    status: JobStatus = Field(description="queued, running, succeeded, cancelled or dead (out of attempts).")
    priority: int
    params: dict[str, Any]
    progress: ProgressOut
    attempts: int = Field(description="Attempts begun, this one included.")
    max_attempts: int
    created_at: datetime
    updated_at: datetime
    run_at: datetime = Field(description="A queued job runs no earlier (its backoff after a failure).")
    started_at: datetime | None
    finished_at: datetime | None
    actor: str = Field(description="Who asked for it (X-Credence-Actor), or `scheduler`.")
    key: str | None = Field(description="Its idempotency key, if it was given one.")
    depends_on: list[str]
    waiting_for: list[str] = Field(description="The jobs it depends on that have not succeeded (yet).")
    lease_owner: str | None = Field(description="The worker running it (host:pid:id), while it runs.")
    lease_until: datetime | None = Field(description="When that worker's lease ends unless renewed.")
    cancel_requested: bool = Field(description="Cancelled while running: it stops at its next checkpoint.")
    result: dict[str, Any] | None = Field(description="What it answered, once it succeeded.")
    last_error: str | None = Field(description="Why its latest attempt failed (a dead job keeps it).")
    parent_id: str | None = Field(description="The scheduled job that enqueued it, if one did.")

    @classmethod
    def of(cls, job: Job) -> JobOut:
        return cls(id=job.id, agent=job.agent, kind=job.kind, status=job.status, priority=job.priority,
                   params=job.params, progress=ProgressOut(done=job.done, total=job.total), attempts=job.attempts,
                   max_attempts=job.max_attempts, created_at=job.created_at, updated_at=job.updated_at,
                   run_at=job.run_at, started_at=job.started_at, finished_at=job.finished_at, actor=job.actor,
                   key=job.key, depends_on=list(job.depends_on), waiting_for=list(job.waiting_for),
                   lease_owner=job.lease_owner, lease_until=job.lease_until, cancel_requested=job.cancel_requested,
                   result=job.result, last_error=job.last_error, parent_id=job.parent_id)


class JobPageOut(BaseModel):
    count: int
    items: list[JobOut] = Field(description="Newest first.")
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")


class RestoreRequest(Request):
    reason: str | None = Field(None, max_length=MAX_REASON_CHARS, description="Why, for the audit trail.")
