"""The queue's pure rules: what a job request may hold, and when a failed job runs again. No I/O."""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from typing import Any

from graph.core.checks import check_limit, check_short_text, check_uuid
from graph.core.errors import InvalidInput
from graph.core.tenancy import check_agent
from graph.core.timeutil import check_instant
from graph.core.values import MAX_METADATA_DEPTH, check_json
from graph.jobs.model import (
    MAX_DEPENDENCIES,
    MAX_ERROR_CHARS,
    MAX_KEY_CHARS,
    MAX_PARAMS_CHARS,
    PRIORITY_HIGHEST,
    PRIORITY_LOWEST,
    SYSTEM_AGENT,
    NewJob,
)

MAX_ATTEMPTS_LIMIT = 100
JITTER = 0.1  # a retry waits its backoff +-10%, so jobs that failed together do not retry together


def check_job_agent(agent: Any, field: str = "agent") -> str:
    """A tenant, or the system tenant of scheduled fan-outs."""
    return agent if agent == SYSTEM_AGENT else check_agent(agent, field)


def check_new_job(job: NewJob, kinds: tuple[str, ...]) -> NewJob:
    """The request as the queue stores it, or InvalidInput naming the field. `kinds`: those a handler
    is registered for (a job no worker can run is refused, not left queued forever)."""
    check_job_agent(job.agent)
    if job.kind not in kinds:
        raise InvalidInput("kind", f"must be one of {', '.join(sorted(kinds))}" if kinds else "no job kind is served")
    if not isinstance(job.params, dict):
        raise InvalidInput("params", "must be a JSON object")
    check_json(job.params, "params", MAX_METADATA_DEPTH)
    if len(params_json(job.params)) > MAX_PARAMS_CHARS:
        raise InvalidInput("params", f"is longer than {MAX_PARAMS_CHARS} characters as JSON")
    check_limit(job.priority, "priority", PRIORITY_HIGHEST, PRIORITY_LOWEST)
    if job.key is not None:
        check_short_text(job.key, "key", MAX_KEY_CHARS)
    if job.max_attempts is not None:
        check_limit(job.max_attempts, "max_attempts", 1, MAX_ATTEMPTS_LIMIT)
    if len(job.depends_on) > MAX_DEPENDENCIES:
        raise InvalidInput("depends_on", f"names {len(job.depends_on)} jobs; the limit is {MAX_DEPENDENCIES}")
    depends = tuple(dict.fromkeys(check_uuid(d, f"depends_on[{i}]") for i, d in enumerate(job.depends_on)))
    if job.parent_id is not None:
        check_uuid(job.parent_id, "parent_id")
    return NewJob(agent=job.agent, kind=job.kind, params=job.params, priority=job.priority, key=job.key,
                  depends_on=depends, max_attempts=job.max_attempts, run_at=check_instant(job.run_at, "run_at"),
                  parent_id=job.parent_id)


def params_json(params: dict[str, Any]) -> str:
    """How a job stores its parameters, state and result: sorted, compact JSON text."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


def backoff(attempts: int, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Seconds before the next attempt of a job that failed its `attempts`-th: base, 2*base, 4*base, ...
    up to `cap`, each +-JITTER at random."""
    wait = min(base * 2 ** max(attempts - 1, 0), cap)
    return wait * (1 + JITTER * (2 * (rng or random).random() - 1))


def retry_at(now: datetime, attempts: int, base: float, cap: float) -> datetime:
    return now + timedelta(seconds=backoff(attempts, base, cap))


def error_text(exc: BaseException) -> str:
    """What a job keeps of the error that failed it: its type and message, cut to a bound."""
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS - 1] + "…"
