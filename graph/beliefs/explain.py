"""Why a belief stands where it does (docs/beliefs.md): status, the trust formula term by
term, its sources, claim, conflicts and supersessions, read from the graph in one query."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.beliefs.trust import TrustBreakdown, age_days, compute_trust
from graph.core.errors import NotFound
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, from_graph_required, utcnow
from graph.memories.model import Claim, Memory
from graph.memories.records import claim_from_map, memory_from_map
from graph.store.gateway import GraphRunner


@dataclass(frozen=True)
class TrustInputs:
    source: str
    corroboration: int
    reinforcements: int
    disputes: int
    age_days: float


@dataclass(frozen=True)
class TrustNow:
    """The trust formula's terms now, beside the trust stored at the last change."""
    terms: TrustBreakdown
    stored: float
    computed_at: datetime
    inputs: TrustInputs


@dataclass(frozen=True)
class SourceRecord:
    type: str
    ref: str
    at: datetime | None  # when this source confirmed the belief


@dataclass(frozen=True)
class ConflictRef:
    """A conflict the memory takes part in, and the memory on its other side."""
    id: str
    status: str
    reason: str
    rule: str | None
    resolution: str | None
    new_trust: float | None
    existing_trust: float | None
    created_at: datetime
    resolved_at: datetime | None
    role: str  # new | existing: the memory's side
    other_id: str | None


@dataclass(frozen=True)
class SupersessionEdge:
    """One SUPERSEDES edge at the memory: the other memory, when, why, and both trusts then."""
    id: str
    at: datetime | None
    reason: str | None
    status: str | None = None  # superseded_by only: the newer memory's status now
    new_trust: float | None = None
    old_trust: float | None = None


@dataclass(frozen=True)
class Explanation:
    memory: Memory
    trust: TrustNow
    sources: tuple[SourceRecord, ...]
    conflicts: tuple[ConflictRef, ...]
    superseded_by: tuple[SupersessionEdge, ...]
    supersedes: tuple[SupersessionEdge, ...]


@dataclass(frozen=True)
class Supersession:
    id: str
    status: str
    superseded: bool
    superseded_by: tuple[SupersessionEdge, ...]  # oldest first
    claim: Claim | None


def _edges(items: list[dict[str, Any]]) -> tuple[SupersessionEdge, ...]:
    edges = [SupersessionEdge(id=e["id"], at=from_graph(e["at"]), reason=e.get("reason"), status=e.get("status"),
                              new_trust=e.get("new_trust"), old_trust=e.get("old_trust")) for e in items]
    return tuple(sorted(edges, key=lambda e: (e.at is None, e.at or datetime.min, e.id)))


class ExplainService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def _read(self, agent: str, memory_id: str) -> dict[str, Any]:
        row = await self.runner.read_tx(lambda tx: tx.optional("beliefs/explain/memory", agent=agent, id=memory_id))
        if row is None:
            raise NotFound("memory", memory_id)
        return row

    async def memory(self, agent: str, memory_id: str) -> Explanation:
        check_agent(agent)
        row = await self._read(agent, memory_id)
        memory = memory_from_map(row["memory"], row["claim"])
        now = utcnow()
        age = age_days(memory.created_at, now)
        terms = compute_trust(memory.source_type, memory.corroboration, memory.reinforcements, memory.disputes, age)
        sources = [SourceRecord(type=s["type"], ref=s["ref"], at=from_graph(s["at"])) for s in row["sources"]]
        conflicts = [ConflictRef(id=c["id"], status=c["status"], reason=c["reason"], rule=c.get("rule"),
                                 resolution=c.get("resolution"), new_trust=c.get("new_trust"),
                                 existing_trust=c.get("existing_trust"),
                                 created_at=from_graph_required(c["created_at"]),
                                 resolved_at=from_graph(c.get("resolved_at")), role=c["role"],
                                 other_id=c.get("other_id")) for c in row["conflicts"]]
        return Explanation(
            memory=memory,
            trust=TrustNow(terms=terms, stored=memory.trust, computed_at=now,
                           inputs=TrustInputs(source=memory.source_type, corroboration=memory.corroboration,
                                              reinforcements=memory.reinforcements, disputes=memory.disputes,
                                              age_days=round(age, 3))),
            sources=tuple(sorted(sources, key=lambda s: (s.at is None, s.at or datetime.min))),
            conflicts=tuple(sorted(conflicts, key=lambda c: c.created_at)),
            superseded_by=_edges(row["superseded_by"]),
            supersedes=_edges(row["supersedes"]))

    async def supersession(self, agent: str, memory_id: str) -> Supersession:
        check_agent(agent)
        row = await self._read(agent, memory_id)
        by = _edges(row["superseded_by"])
        return Supersession(id=memory_id, status=row["memory"]["status"], superseded=bool(by), superseded_by=by,
                            claim=claim_from_map(row["claim"]))
