"""A tenant as consolidation reads it: its active memories with what the rules weigh, its entities
and what is past retention (cypher/consolidation/). Pure: rows in, records out."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.beliefs.trust import trust_now
from graph.core.timeutil import from_graph, from_graph_required
from graph.core.vocab import DEFAULT_SENSITIVITY, DEFAULT_SOURCE
from graph.memories.model import Claim


@dataclass(frozen=True)
class Source:
    key: str
    type: str
    ref: str

    def row(self) -> dict[str, str]:
        return {"key": self.key, "type": self.type, "ref": self.ref}


@dataclass
class Item:
    """One active memory that has not expired, as the rules see it (and as the plan leaves it)."""
    id: str
    memory_type: str
    category: str | None
    sensitivity: str
    historical: bool
    effective_from: datetime | None
    event_at: datetime | None
    expires_at: datetime | None
    created_at: datetime
    trust: float
    source_type: str
    reinforcements: int
    disputes: int
    tags: tuple[str, ...]
    importance: float
    embedded: bool
    digested: bool
    sources: dict[str, Source] = field(default_factory=dict)  # by key
    claim: Claim | None = None

    @classmethod
    def of(cls, row: dict[str, Any]) -> Item:
        c = row.get("claim")
        claim = None if not c else Claim(
            subject=c["subject"], predicate=c["predicate"], value=c["value"], exclusive=bool(c.get("exclusive", True)),
            scope=c.get("scope") or "global", session_id=c.get("session_id"),
            valid_from=from_graph(c.get("valid_from")), valid_until=from_graph(c.get("valid_until")),
            normalized_value=c.get("normalized_value") or "")
        sources = {s["key"]: Source(s["key"], s["type"], s.get("ref") or "") for s in row.get("sources") or ()}
        return cls(id=row["id"], memory_type=row.get("memory_type") or "fact", category=row.get("category"),
                   sensitivity=row.get("sensitivity") or DEFAULT_SENSITIVITY, historical=bool(row.get("historical")),
                   effective_from=from_graph(row.get("effective_from")), event_at=from_graph(row.get("event_at")),
                   expires_at=from_graph(row.get("expires_at")), created_at=from_graph_required(row["created_at"]),
                   trust=float(row["trust"]) if row.get("trust") is not None else 0.5,
                   source_type=row.get("source_type") or DEFAULT_SOURCE,
                   reinforcements=row.get("reinforcements") or 0, disputes=row.get("disputes") or 0,
                   tags=tuple(row.get("tags") or ()), importance=float(row.get("importance") or 0.5),
                   embedded=bool(row.get("embedded")), digested=bool(row.get("digested")), sources=sources,
                   claim=claim)

    @property
    def slot(self) -> tuple[str, str] | None:
        """Its claim's belief slot within the tenant: (subject, predicate)."""
        return (self.claim.subject, self.claim.predicate) if self.claim else None

    @property
    def when(self) -> datetime:
        """When it happened: its event time, else when it was recorded."""
        return self.event_at or self.created_at

    def trust_with(self, sources: int, source_type: str, now: datetime) -> float:
        """Its trust by the formula (graph/beliefs/trust.py) with this many sources and this source type."""
        return trust_now({"source_type": source_type, "corroboration": sources, "reinforcements": self.reinforcements,
                          "disputes": self.disputes, "created_at": self.created_at}, now)


@dataclass(frozen=True)
class EntityRow:
    id: str
    name: str
    kind: str
    mentions: int
    created_at: datetime | None

    @classmethod
    def of(cls, row: dict[str, Any]) -> EntityRow:
        return cls(row["id"], row["name"], row["kind"], int(row["mentions"] or 0), from_graph(row.get("created_at")))


@dataclass(frozen=True)
class Prunable:
    id: str
    status: str
    reason: str  # archived | expired
    since: datetime | None

    @classmethod
    def of(cls, row: dict[str, Any]) -> Prunable:
        return cls(row["id"], row["status"], row["reason"], from_graph(row.get("since")))
