"""Job records: what is asked for, what is stored, and a page of them."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# The tenant of jobs no tenant asked for: the scheduler's, which fan out to one job per tenant. It is
# no agent id (those start with a letter or digit), so no tenant route can name it; /v1/admin/jobs does.
SYSTEM_AGENT = "_system"

PRIORITY_HIGHEST, PRIORITY_LOWEST, DEFAULT_PRIORITY = 1, 10, 5  # 1 runs first
MAX_KEY_CHARS = 200  # an idempotency key
MAX_DEPENDENCIES = 100
MAX_PARAMS_CHARS = 65_536  # a job's parameters as JSON text
MAX_ERROR_CHARS = 4_000  # the last error a job keeps
MAX_JOB_PAGE, DEFAULT_JOB_PAGE = 500, 50


@dataclass(frozen=True)
class NewJob:
    """A job to enqueue. `key`: the same key twice is one job (the second request answers the first
    job); `depends_on`: ids of this tenant's jobs that must succeed first; `run_at`: not before."""
    agent: str
    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    priority: int = DEFAULT_PRIORITY
    key: str | None = None
    depends_on: tuple[str, ...] = ()
    max_attempts: int | None = None  # None: the worker setting's
    run_at: datetime | None = None
    parent_id: str | None = None  # the job that enqueued it (a scheduled fan-out)


@dataclass(frozen=True)
class Job:
    id: str
    agent: str
    kind: str
    status: str
    priority: int
    params: dict[str, Any]
    attempts: int
    max_attempts: int
    created_at: datetime
    updated_at: datetime
    run_at: datetime
    actor: str
    key: str | None = None
    depends_on: tuple[str, ...] = ()
    waiting_for: tuple[str, ...] = ()  # the dependencies that have not succeeded (yet)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    lease_owner: str | None = None
    lease_until: datetime | None = None
    cancel_requested: bool = False
    done: int = 0
    total: int | None = None
    result: dict[str, Any] | None = None
    last_error: str | None = None
    parent_id: str | None = None


@dataclass(frozen=True)
class Enqueued:
    job: Job
    created: bool  # False: the key named a job already there, which is answered instead


@dataclass(frozen=True)
class JobPage:
    items: list[Job]
    next_cursor: str | None


@dataclass(frozen=True)
class Claimed:
    """A job a worker holds the lease on, with what it needs to run it."""
    job: Job
    state: dict[str, Any]  # the last checkpoint's state; empty on a first run
