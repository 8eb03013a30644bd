"""mem0 memories (an item of `Memory.get_all()["results"]`, or of the platform's list) as Credence
export lines. Pure: no I/O.

A mem0 item: {id, memory, hash, metadata, created_at, updated_at, user_id, agent_id, run_id,
actor_id, role, categories, ...}; only `id` and `memory` are required. It becomes an active memory
from an `inference` source (mem0 extracted it with a model) whose ref is "mem0", plus one audit
record (op `import`). mem0's own fields are kept under metadata["mem0"]."""
from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from graph.core.errors import InvalidInput
from graph.core.keys import scoped
from graph.core.timeutil import iso, to_utc
from graph.core.vocab import ACTIVE, OP_IMPORT

# Ids are derived per tenant: the same mem0 store may be imported into several tenants, and a
# re-import maps every item to the same memory (so it changes nothing).
NAMESPACE = uuid.UUID("6f1c3b2a-7d4e-5a10-9c1e-2f0b8d6e4a31")
KEPT = ("id", "hash", "user_id", "agent_id", "run_id", "actor_id", "role", "app_id")
SOURCE_REF = "mem0"


def memory_id(agent: str, mem0_id: str) -> str:
    return str(uuid.uuid5(NAMESPACE, scoped(agent, mem0_id)))


def _when(value: Any, name: str, default: str) -> str:
    if value is None:
        return default
    try:
        return iso(to_utc(datetime.fromisoformat(value)))
    except (TypeError, ValueError):
        raise InvalidInput(f"mem0.{name}", "must be an ISO-8601 time") from None


def to_lines(item: dict[str, Any], agent: str, actor: str, now: datetime) -> list[dict[str, Any]]:
    raw_id = item.get("id")
    if not isinstance(raw_id, (str, int)) or isinstance(raw_id, bool) or not str(raw_id).strip():
        raise InvalidInput("mem0.id", "is required (mem0's memory id)")
    mem0_id = str(raw_id)
    metadata = item.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise InvalidInput("mem0.metadata", "must be an object or null")
    categories = item.get("categories") or []
    if not isinstance(categories, list):
        raise InvalidInput("mem0.categories", "must be a list of strings")
    created = _when(item.get("created_at"), "created_at", iso(now))
    updated = _when(item.get("updated_at"), "updated_at", created)
    ident = memory_id(agent, mem0_id)
    kept = {k: (mem0_id if k == "id" else item[k]) for k in KEPT if item.get(k) is not None}
    procedural = metadata.get("memory_type") == "procedural_memory"
    memory = {"kind": "memory", "id": ident, "text": item.get("memory"),
              "memory_type": "procedure" if procedural else "fact", "tags": categories,
              "status": ACTIVE, "metadata": {**metadata, "mem0": kept}, "source_type": "inference",
              "created_at": created, "updated_at": updated,
              "sources": [{"type": "inference", "ref": SOURCE_REF, "at": created}]}
    operation = {"kind": "operation", "id": str(uuid.uuid5(NAMESPACE, scoped(agent, "import", mem0_id))),
                 "op": OP_IMPORT, "actor": actor, "at": iso(now), "before": None,
                 "after": {"from": "mem0", "mem0_id": mem0_id, "id": ident}, "memory_ids": [ident]}
    return [memory, operation]
