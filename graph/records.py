"""Graph records become domain objects here and nowhere else."""
from __future__ import annotations

import json
from typing import Any

from graph.model import Memory
from graph.timeutil import from_graph


def memory_from_map(m: dict[str, Any]) -> Memory:
    metadata = m.get("metadata")
    return Memory(
        id=m["id"],
        agent=m["agent"],
        text=m["text"],
        memory_type=m.get("memory_type") or "fact",
        category=m.get("category"),
        importance=float(m.get("importance", 0.5)),
        tags=tuple(m.get("tags") or ()),
        status=m.get("status") or "active",
        version=int(m.get("version") or 1),
        created_at=from_graph(m["created_at"]),
        updated_at=from_graph(m.get("updated_at") or m["created_at"]),
        event_at=from_graph(m.get("event_at")),
        # Neo4j properties cannot hold maps, so metadata is stored as a JSON object string.
        metadata=json.loads(metadata) if metadata else None,
    )
