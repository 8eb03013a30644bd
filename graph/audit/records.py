"""Audit records, written inside the transaction of the change they describe."""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from graph.core.timeutil import iso, utcnow
from graph.core.vocab import AUDIT_OPS
from graph.store.gateway import Tx

DEFAULT_ACTOR = "api"
MAX_ACTOR_CHARS = 200  # who acted: a user, an agent, a job (the API's X-Credence-Actor header)
MAX_JOB_ID_CHARS = 200


@dataclass(frozen=True)
class Operation:
    """One audit record: who changed which memories how, with what the change touched before and
    after. `memory_ids` are the memories it touched (a hard delete touches none: its memory is
    gone); `redacted` is true once a hard delete blanked a payload it shared; `job_id` names the
    maintenance job that made the change, null for a change a caller made."""
    id: str
    op: str  # one of graph.core.vocab.AUDIT_OPS (an imported record may carry an older name)
    actor: str
    at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    memory_ids: tuple[str, ...] = ()
    job_id: str | None = None
    redacted: bool = False


@dataclass(frozen=True)
class OperationPage:
    """A page of audit records, and the cursor of the next page (None on the last)."""
    items: list[Operation]
    next_cursor: str | None


@dataclass(frozen=True)
class Entry:
    """An audit record to write: `memory_ids` are the memories it touched."""
    op: str
    actor: str
    memory_ids: Sequence[str] = ()
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    job_id: str | None = None
    id: str = field(default_factory=lambda: str(uuid.uuid4()))

    def __post_init__(self) -> None:
        # A writer's mistake, never a caller's: every op has its name in the one vocabulary.
        if self.op not in AUDIT_OPS:
            raise ValueError(f"audit op {self.op!r} is not in graph.core.vocab.AUDIT_OPS")


def audit_json(value: dict[str, Any] | None) -> str | None:
    """How an audit record stores its before and after: sorted, compact JSON text (import writes the same)."""
    return None if value is None else json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))


async def record_all(tx: Tx, agent: str, entries: Sequence[Entry]) -> None:
    """Writes the records in one statement. Each gets its own instant, a microsecond apart at least,
    so a trail (ordered by time) reads them in the order they were made."""
    if not entries:
        return
    at, rows = utcnow(), []
    for e in entries:
        rows.append({"id": e.id, "op": e.op, "actor": e.actor, "at": iso(at), "before": audit_json(e.before),
                     "after": audit_json(e.after), "job_id": e.job_id, "memory_ids": list(e.memory_ids)})
        at = max(utcnow(), at + timedelta(microseconds=1))
    await tx.scalar("audit/record", agent=agent, log={"records": rows})


async def record(tx: Tx, agent: str, op: str, actor: str, memory_ids: Sequence[str],
                 before: dict[str, Any] | None = None, after: dict[str, Any] | None = None,
                 job_id: str | None = None) -> str:
    entry = Entry(op, actor, tuple(memory_ids), before, after, job_id)
    await record_all(tx, agent, [entry])
    return entry.id
