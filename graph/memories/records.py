"""Graph records become domain objects here and nowhere else."""
from __future__ import annotations

from typing import Any

from graph.core.timeutil import from_graph, from_graph_required
from graph.core.values import loads_readable
from graph.core.vocab import ACTIVE, DEFAULT_SENSITIVITY, DEFAULT_SOURCE
from graph.memories.model import Claim, Memory, Quarantine
from graph.memories.rules import MAX_METADATA_DEPTH


def claim_from_map(c: dict[str, Any] | None) -> Claim | None:
    if not c:
        return None
    return Claim(subject=c["subject"], predicate=c["predicate"], value=c["value"],
                 exclusive=bool(c.get("exclusive", True)), scope=c.get("scope") or "global",
                 session_id=c.get("session_id"), valid_from=from_graph(c.get("valid_from")),
                 valid_until=from_graph(c.get("valid_until")), normalized_value=c.get("normalized_value"))


def memory_from_map(m: dict[str, Any], claim: dict[str, Any] | None = None) -> Memory:
    metadata = m.get("metadata")
    quarantine = None
    if m.get("quarantine_reason"):
        quarantine = Quarantine(reason=m["quarantine_reason"], details=m.get("quarantine_details"),
                                created_at=from_graph_required(m.get("quarantined_at") or m["created_at"]),
                                resolution=m.get("quarantine_resolution"),
                                resolved_at=from_graph(m.get("quarantine_resolved_at")))
    return Memory(
        id=m["id"],
        agent=m["agent"],
        text=m["text"],
        memory_type=m.get("memory_type") or "fact",
        category=m.get("category"),
        importance=float(m.get("importance", 0.5)),
        tags=tuple(m.get("tags") or ()),
        status=m.get("status") or ACTIVE,
        version=int(m.get("version") or 1),
        created_at=from_graph_required(m["created_at"]),
        updated_at=from_graph_required(m.get("updated_at") or m["created_at"]),
        event_at=from_graph(m.get("event_at")),
        # Neo4j properties cannot hold maps, so metadata is stored as a JSON object string. Read
        # through repair: what an older version stored must never fail the tenant's reads.
        metadata=loads_readable(metadata, MAX_METADATA_DEPTH),
        source_type=m.get("source_type") or DEFAULT_SOURCE,
        corroboration=int(m.get("corroboration") or 1),
        reinforcements=int(m.get("reinforcements") or 0),
        disputes=int(m.get("disputes") or 0),
        trust=float(m.get("trust", 0.5)),
        confidence=float(m.get("confidence", m.get("trust", 0.5))),
        quarantine=quarantine,
        claim=claim_from_map(claim),
        valid_from=from_graph(m.get("valid_from")),
        valid_until=from_graph(m.get("valid_until")),
        access_count=int(m.get("access_count") or 0),
        last_accessed_at=from_graph(m.get("last_accessed_at")),
        superseded_at=from_graph(m.get("superseded_at")),
        sensitivity=m.get("sensitivity") or DEFAULT_SENSITIVITY,
        effective_from=from_graph(m.get("effective_from")),
        expires_at=from_graph(m.get("expires_at")),
        recurrence=m.get("recurrence"),
        historical=bool(m.get("historical") or False),
        sentiment=float(m["sentiment"]) if m.get("sentiment") is not None else None,
        thread=m.get("thread"),
        turn=int(m["turn"]) if m.get("turn") is not None else None,
    )
