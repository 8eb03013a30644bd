"""Graph maps into entity records (one place), with each relation's standing computed at an instant."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from graph.core.timeutil import from_graph
from graph.entities.model import Entity, EntityRef, Relationship
from graph.entities.strength import Evidence, standing


def entity_from_map(m: dict[str, Any]) -> Entity:
    return Entity(id=m["id"], name=m["name"], kind=m.get("kind") or "other", aliases=tuple(m.get("aliases") or ()),
                  mentions=int(m.get("mentions") or 0), created_at=from_graph(m.get("created_at")))


def ref_from_map(m: dict[str, Any]) -> EntityRef:
    return EntityRef(id=m["id"], name=m["name"], kind=m.get("kind") or "other")


def evidence_from_map(m: dict[str, Any]) -> Evidence:
    created = from_graph(m["created_at"])
    assert created is not None
    return Evidence(memory_id=m["memory_id"], status=m["status"], trust=float(m.get("trust") or 0.0),
                    created_at=created, start=from_graph(m["start"]) or created, end=from_graph(m.get("end")))


def relationship_from_map(m: dict[str, Any], at: datetime) -> Relationship:
    evidence = [evidence_from_map(e) for e in m["evidence"]]
    s = standing(evidence, at)
    return Relationship(id=m["id"], type=m["type"], source=ref_from_map(m["source"][0]),
                        target=ref_from_map(m["target"][0]),
                        strength=s.strength, mentions=s.mentions, trust=s.trust, first_seen=s.first_seen,
                        last_seen=s.last_seen, valid_from=s.valid_from, valid_until=s.valid_until, current=s.current,
                        memory_ids=tuple(sorted(e.memory_id for e in evidence)))
