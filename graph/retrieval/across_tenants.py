"""One search over several tenants (administrators only): each tenant is searched on its own, with
its own filters inside its own queries; only the answers meet, here, merged by the same order a
single search uses."""
from __future__ import annotations

from dataclasses import dataclass

from graph.retrieval.model import SearchHit, SearchResult


@dataclass(frozen=True)
class AcrossTenants:
    hits: list[SearchHit]  # the best `limit` of all tenants; each hit's memory names its agent
    results: dict[str, SearchResult]  # each tenant's own answer, with its meta when explained


def merge(results: dict[str, SearchResult], limit: int, reranked: bool) -> AcrossTenants:
    """Ranked as within one tenant: by composite score when reranked, else by relevance; ids break ties."""
    hits = [h for r in results.values() for h in r.hits]
    hits.sort(key=(lambda h: (-h.composite, -h.score, h.memory.id)) if reranked
              else (lambda h: (-h.score, h.memory.id)))
    return AcrossTenants(hits=hits[:limit], results=results)
