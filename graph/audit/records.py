"""Audit records, written inside the transaction of the change they describe."""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from graph.core.timeutil import iso, utcnow
from graph.store.gateway import Tx

DEFAULT_ACTOR = "api"


@dataclass(frozen=True)
class Operation:
    """One audit record: who changed which memories how, with what the change touched before and after."""
    id: str
    op: str  # store, update, archive, supersede, quarantine, review, resolve, reinforce, dispute, ...
    actor: str
    at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class Entry:
    """An audit record to write: `memory_ids` are the memories it touched."""
    op: str
    actor: str
    memory_ids: Sequence[str] = ()
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    id: str = field(default_factory=lambda: str(uuid.uuid4()))


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
                     "after": audit_json(e.after), "memory_ids": list(e.memory_ids)})
        at = max(utcnow(), at + timedelta(microseconds=1))
    await tx.scalar("audit/record", agent=agent, records=rows)


async def record(tx: Tx, agent: str, op: str, actor: str, memory_ids: Sequence[str],
                 before: dict[str, Any] | None = None, after: dict[str, Any] | None = None) -> str:
    entry = Entry(op, actor, tuple(memory_ids), before, after)
    await record_all(tx, agent, [entry])
    return entry.id
