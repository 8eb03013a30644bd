"""Context for an agent's prompt (PRD v0.8 feature 5): a search pool of twice max_memories,
expanded along typed edges (by default one hop, every kind, both ways: graph/links/expansion.py),
then either the best max_memories or, with max_tokens, a greedy knapsack that never exceeds the
budget. Expansion screens what it reaches through search's visibility filters, so a superseded
memory comes in only when the request shows superseded memories."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from graph.context.format import ContextItem
from graph.context.packing import Packed, pack, top
from graph.context.tokens import TokenEstimator
from graph.core.timeutil import utcnow
from graph.links.expansion import Expand, Reached, Related, check_expand, related
from graph.memories.model import Memory
from graph.memories.records import memory_from_map
from graph.retrieval.fusion import fuse
from graph.retrieval.model import SearchMeta, SearchQuery, check_query
from graph.retrieval.rerank import Weights, composite, signals
from graph.retrieval.service import RetrievalService, visibility
from graph.store.gateway import GraphRunner


@dataclass(frozen=True)
class ContextQuery:
    search: SearchQuery  # its limit is ignored: the pool is always 2 x max_memories; its expand too
    max_memories: int = 15
    max_tokens: int | None = None
    expand: Expand = Expand(depth=1)


@dataclass(frozen=True)
class Candidate:
    memory: Memory
    value: float  # composite score
    via: str  # "search", or the edge kinds that brought it in (the last hop of each path)
    expanded_from: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()  # pool memories from search: what their edges reach
    related_truncated: bool = False  # they reached more than expand.limit; the nearest are listed


@dataclass(frozen=True)
class ContextResult:
    packed: Packed
    candidates: dict[str, Candidate]
    max_tokens: int | None
    search_meta: SearchMeta | None


class ContextService:
    def __init__(self, runner: GraphRunner, retrieval: RetrievalService, estimate: TokenEstimator) -> None:
        self.runner, self.retrieval, self.estimate = runner, retrieval, estimate

    async def context(self, query: ContextQuery) -> ContextResult:
        check_expand(query.expand)
        search = check_query(replace(query.search, limit=2 * query.max_memories, track_access=False,
                                     expand=Expand()))
        weights = search.rerank or Weights()
        # Embedded while the search's full-text query runs; the memories reached need the vector too.
        embedding = asyncio.ensure_future(self.retrieval.embed(search.text))
        result = await self.retrieval.search(search, embedding)
        reached = await related(self.runner, [h.memory.id for h in result.hits], query.expand,
                                visibility(search, explain=False))
        pool = {h.memory.id: Candidate(h.memory, h.composite, "search", related=reached.of(h.memory.id),
                                       related_truncated=h.memory.id in reached.cut)
                for h in result.hits}
        pool.update(await self._reached(search, await embedding, reached, set(pool), weights))

        items = [_item(c) for c in pool.values()]
        packed = pack(items, query.max_tokens, self.estimate) if query.max_tokens is not None \
            else top(items, query.max_memories, self.estimate)
        self.retrieval.access.record(search.agent, [i.id for i in packed.included])
        return ContextResult(packed=packed, candidates=pool, max_tokens=query.max_tokens, search_meta=result.meta)

    async def _reached(self, search: SearchQuery, embedding: list[float], reached: Reached,
                       pool: set[str], weights: Weights) -> dict[str, Candidate]:
        """The memories expansion reached outside the pool, scored as candidates."""
        kinds: dict[str, set[str]] = {}
        starts: dict[str, set[str]] = {}
        for start, found in reached.related.items():
            for r in found:
                if r.id not in pool:
                    kinds.setdefault(r.id, set()).add(r.kind)
                    starts.setdefault(r.id, set()).add(start)
        if not kinds:
            return {}
        # Hydrated through the same filters (expansion screened them already; this also gives the cosine).
        rows = await self.runner.read("retrieval/hydrate", ids=sorted(kinds), embedding=embedding,
                                      **visibility(search, explain=False))
        now, out = utcnow(), {}
        for row in rows:
            memory = memory_from_map(row["memory"], row["claim"])
            # Relevant on the search's own absolute scale, from its cosine (keyword mode: the vector fit's).
            mode = "vector" if search.mode == "keyword" else search.mode
            relevance = fuse(mode, self.retrieval.scale.to_cosine(row["similarity"]), 0.0, None, 0.0, None).relevance
            value = composite(signals(relevance, memory.confidence, memory.updated_at, memory.importance, now,
                                      memory.event_at), weights)
            out[memory.id] = Candidate(memory, value, "+".join(sorted(kinds[memory.id])),
                                       tuple(sorted(starts[memory.id])))
        return out


def _item(c: Candidate) -> ContextItem:
    m = c.memory
    return ContextItem(id=m.id, text=m.text, memory_type=m.memory_type, value=c.value, valid_from=m.valid_from,
                       valid_until=m.valid_until, historical=m.status == "superseded")
