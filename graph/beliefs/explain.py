"""Why a belief stands where it does (PRD v0.8.1 feature 8): status, the trust formula term by
term, its sources, claim, conflicts and supersessions, read from the graph in one query."""
from __future__ import annotations

from typing import Any

from graph.core.errors import NotFound
from graph.memories.records import claim_from_map, memory_from_map
from graph.store.gateway import GraphRunner
from graph.core.timeutil import from_graph, utcnow
from graph.beliefs.trust import age_days, compute_trust


def _times(items: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return [{**i, **{k: from_graph(i.get(k)) for k in keys if k in i}} for i in items]


class ExplainService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def _read(self, agent: str, memory_id: str) -> dict[str, Any]:
        rows = await self.runner.read("beliefs/explain/memory", agent=agent, id=memory_id)
        if not rows:
            raise NotFound("memory", memory_id)
        return rows[0]

    async def memory(self, agent: str, memory_id: str) -> dict[str, Any]:
        row = await self._read(agent, memory_id)
        memory = memory_from_map(row["memory"], row["claim"])
        now = utcnow()
        breakdown = compute_trust(memory.source_type, memory.corroboration, memory.reinforcements, memory.disputes,
                                  age_days(memory.created_at, now))
        return {
            "memory": memory,
            "trust": {**breakdown.as_dict(), "stored": memory.trust, "computed_at": now,
                      "inputs": {"source": memory.source_type, "corroboration": memory.corroboration,
                                 "reinforcements": memory.reinforcements, "disputes": memory.disputes,
                                 "age_days": round(age_days(memory.created_at, now), 3)}},
            "sources": sorted(_times(row["sources"], "at"), key=lambda s: s["at"]),
            "conflicts": sorted(_times(row["conflicts"], "created_at", "resolved_at"), key=lambda c: c["created_at"]),
            "superseded_by": _times(row["superseded_by"], "at"),
            "supersedes": _times(row["supersedes"], "at"),
        }

    async def supersession(self, agent: str, memory_id: str) -> dict[str, Any]:
        row = await self._read(agent, memory_id)
        by = sorted(_times(row["superseded_by"], "at"), key=lambda s: s["at"])
        return {"id": memory_id, "status": row["memory"]["status"], "superseded": bool(by), "superseded_by": by,
                "claim": claim_from_map(row["claim"])}
