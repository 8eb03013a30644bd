"""Audit records: every belief change leaves an (:Operation) touching the memories it changed."""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
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


def audit_json(value: dict[str, Any] | None) -> str | None:
    """How an audit record stores its before and after: sorted, compact JSON text (import writes the same)."""
    return None if value is None else json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))


async def record(tx: Tx, agent: str, op: str, actor: str, memory_ids: Sequence[str],
                 before: dict[str, Any] | None = None, after: dict[str, Any] | None = None) -> str:
    op_id = str(uuid.uuid4())
    await tx.scalar("memories/audit/record", agent=agent, id=op_id, op=op, actor=actor, at=iso(utcnow()),
                 before=audit_json(before), after=audit_json(after), memory_ids=list(memory_ids))
    return op_id
