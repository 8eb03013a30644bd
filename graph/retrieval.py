"""Hybrid search that explains itself: vector and full-text candidates, fused by normalised max,
reranked on the PRD's four signals, filtered in Cypher, with explain counts on request."""
from __future__ import annotations

import asyncio
from dataclasses import asdict, replace
from datetime import datetime
from typing import Any

from graph import keywords
from graph.access import AccessTracker
from graph.candidates import Candidates, CandidateSearch
from graph.embedder import AsyncEncoder
from graph.fusion import best_similarity, fuse, keyword_score
from graph.funnel import funnel
from graph.model import SearchHit, SearchMeta, SearchQuery, SearchResult
from graph.records import memory_from_map
from graph.rerank import Weights, composite, signals
from graph.runner import GraphRunner
from graph.similarity import CosineScale
from graph.timeutil import iso, utcnow

POOL_MIN, POOL_FACTOR, POOL_MAX = 30, 3, 300  # each retriever's ranking pool: 3 x limit, 30..300


def pool_size(limit: int) -> int:
    return min(POOL_MAX, max(POOL_MIN, POOL_FACTOR * limit))


def visibility(query: SearchQuery, explain: bool) -> dict[str, Any]:
    """The parameters of the visibility filter every search query shares."""
    return {"agent": query.agent, "statuses": list(query.statuses), "session_id": query.session_id,
            "as_of": iso(query.as_of or utcnow()), "tags": list(query.tags),
            "memory_types": list(query.memory_types) if query.memory_types else None,
            "created_after": iso(query.created_after), "created_before": iso(query.created_before),
            "event_after": iso(query.event_after), "event_before": iso(query.event_before), "explain": explain}


class RetrievalService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, scale: CosineScale, access: AccessTracker, *,
                 exact_scan_max: int, vector_max_k: int, keyword_max_k: int) -> None:
        self.runner, self.encoder, self.scale, self.access = runner, encoder, scale, access
        self.candidates = CandidateSearch(runner, scale, exact_scan_max=exact_scan_max, vector_max_k=vector_max_k,
                                          keyword_max_k=keyword_max_k)

    async def warm_up(self) -> None:
        """ArcadeDB builds its HNSW graph on the first vector query after a load (11-18 s per 10k
        vectors, backends.md §2.1): pay that at start-up, not on a user's first search."""
        await self.runner.read("search/vector", k=1, embedding=await self.embed("warm-up"),
                               **visibility(SearchQuery(agent="", text="warm-up"), explain=False))

    async def embed(self, text: str) -> list[float]:
        return (await self.encoder.encode_one(text)).tolist()

    async def search(self, query: SearchQuery, embedding: list[float] | None = None) -> SearchResult:
        return await self._search(query, embedding or await self.embed(query.text))

    async def search_many(self, queries: list[SearchQuery]) -> list[SearchResult]:
        """One model call for all the query texts, then the searches side by side."""
        embeddings = await self.encoder.encode([q.text for q in queries])
        return list(await asyncio.gather(*(self._search(q, e.tolist()) for q, e in zip(queries, embeddings))))

    async def search_agents(self, query: SearchQuery, agents: list[str]) -> dict[str, SearchResult]:
        """Administrators: the same search in several tenants, each one filtered inside its own queries."""
        embedding = await self.embed(query.text)
        results = await asyncio.gather(*(self._search(replace(query, agent=a), embedding) for a in agents))
        return dict(zip(agents, results))

    async def _search(self, query: SearchQuery, embedding: list[float]) -> SearchResult:
        filters = visibility(query, query.explain)
        pool = pool_size(query.limit)
        terms = keywords.terms(query.text)
        lucene = keywords.lucene_query(terms) if query.mode != "vector" else None
        vector, keyword = await asyncio.gather(
            self.candidates.vector(embedding, filters, pool) if query.mode != "keyword" else _none(),
            self.candidates.keyword(lucene, filters, pool) if lucene else _none())
        ids = list(dict.fromkeys([*vector.scores, *keyword.scores]))
        rows = await self.runner.read("search/hydrate", ids=ids, embedding=embedding,
                                      **visibility(query, explain=False)) if ids else []

        weights = query.rerank or Weights()
        now = utcnow()
        best_bm25 = max(keyword.scores.values(), default=0.0)
        similarities = {row["memory"]["id"]: self.scale.to_cosine(row["similarity"])
                        for row in rows if row["similarity"] is not None}
        ranks_by_cosine = query.mode != "keyword"  # keyword mode reports the cosine but does not rank by it
        best_cosine = best_similarity(list(similarities.values())) if ranks_by_cosine else 0.0
        hits, below = [], 0
        for row in rows:
            memory = memory_from_map(row["memory"], row["claim"])
            similarity = similarities.get(memory.id)
            matched = keywords.hits(terms, memory.text) if memory.id in keyword.scores else []
            kw = (keyword_score(keyword.scores[memory.id], best_bm25, len(matched) / len(terms))
                  if memory.id in keyword.scores else None)
            fused = fuse(similarity if ranks_by_cosine else None, kw, best_cosine)
            if query.min_similarity is not None and fused.match < query.min_similarity:
                below += 1
                continue
            s = signals(fused.relevance, memory.confidence, memory.updated_at, memory.importance, now)
            hits.append(SearchHit(memory=memory, score=fused.relevance, similarity=similarity, keyword_score=kw,
                                  signals=s, composite=composite(s, weights), superseded_by=row["superseded_by"],
                                  keyword_hits=tuple(matched) if query.explain else None))
        order = (lambda h: (-h.composite, -h.score, h.memory.id)) if query.rerank else (lambda h: (-h.score, h.memory.id))
        hits = sorted(hits, key=order)[:query.limit]
        if query.track_access:
            self.access.record(query.agent, [h.memory.id for h in hits])
        meta = self._meta(query, vector, keyword, below, len(hits)) if query.explain else None
        return SearchResult(hits=hits, weights=weights, strategy=vector.strategy, meta=meta,
                            best_similarity=best_cosine)

    @staticmethod
    def _meta(query: SearchQuery, vector: Candidates, keyword: Candidates, below: int, returned: int) -> SearchMeta:
        reasons = {**keyword.reasons, **vector.reasons}
        if vector.strategy == "exact":
            # Exact ranking counted the whole tenant; keyword hits add no new memories to that.
            reasons = dict(vector.reasons)
        counts, excluded = funnel(reasons, vector.hidden_statuses, vector.unseen_kept, below, returned)
        return SearchMeta(options=options_of(query), counts=counts, excluded=excluded, strategy=vector.strategy)


def options_of(query: SearchQuery) -> dict[str, Any]:
    """The effective options, for explain: no embeddings, no internals."""
    out = {k: v for k, v in asdict(query).items() if k not in ("agent", "text", "explain", "track_access")}
    out["rerank"] = query.rerank.as_dict() if query.rerank else False
    for k, v in out.items():
        if isinstance(v, datetime):
            out[k] = iso(v)
        elif isinstance(v, tuple):
            out[k] = list(v)
    return out


async def _none() -> Candidates:
    return Candidates(scores={})
