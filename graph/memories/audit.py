"""Audit records: every belief change leaves an (:Operation) touching the memories it changed."""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from graph.store.gateway import Tx
from graph.core.timeutil import iso, utcnow

DEFAULT_ACTOR = "api"


def _json(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))


async def record(tx: Tx, agent: str, op: str, actor: str, memory_ids: Sequence[str],
                 before: dict[str, Any] | None = None, after: dict[str, Any] | None = None) -> str:
    op_id = str(uuid.uuid4())
    await tx.scalar("memories/audit/record", agent=agent, id=op_id, op=op, actor=actor, at=iso(utcnow()),
                 before=_json(before), after=_json(after), memory_ids=list(memory_ids))
    return op_id
