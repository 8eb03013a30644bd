"""Semantic search that is correct per tenant.

The vector index answers the global top-k, so filtering by tenant afterwards can starve a small
tenant. A tenant with few candidates is scored exactly (cheap, and exact); a larger one goes
through the index, over-fetching by its share of the index and widening until it has enough."""
from __future__ import annotations

import numpy as np

from graph.embedder import AsyncEncoder
from graph.memories import MemoryService
from graph.model import SearchHit, SearchQuery, SearchResult
from graph.records import memory_from_map
from graph.runner import GraphRunner
from graph.similarity import first_k, index_score_to_cosine, next_k, top_k_cosine


class RetrievalService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, memories: MemoryService, *,
                 exact_scan_max: int, vector_max_k: int) -> None:
        self.runner, self.encoder, self.memories = runner, encoder, memories
        self.exact_scan_max, self.vector_max_k = exact_scan_max, vector_max_k

    async def search(self, query: SearchQuery) -> SearchResult:
        vector = await self.encoder.encode_one(query.text)
        filters = {"agent": query.agent, "statuses": list(query.statuses),
                   "memory_types": list(query.memory_types) if query.memory_types else None}
        [counts] = await self.runner.read("search/candidate_counts", **filters)
        tenant, total = counts["tenant"], counts["total"]
        if tenant == 0:
            return SearchResult(hits=[], strategy="exact", candidates=0)
        if tenant <= self.exact_scan_max:
            hits, strategy = await self._exact(vector, query, filters), "exact"
        else:
            hits, strategy = await self._via_index(vector, query, filters, tenant, total)
        if query.min_score is not None:
            hits = [h for h in hits if h.score >= query.min_score]
        return SearchResult(hits=hits, strategy=strategy, candidates=tenant)

    async def _exact(self, vector: np.ndarray, query: SearchQuery, filters: dict) -> list[SearchHit]:
        rows = await self.runner.read("search/tenant_embeddings", **filters)
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        matrix = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
        ranked = top_k_cosine(vector, ids, matrix, query.limit)
        memories = await self.memories.get_many(query.agent, [i for i, _ in ranked])
        return [SearchHit(memory=memories[i], score=s) for i, s in ranked if i in memories]

    async def _via_index(self, vector: np.ndarray, query: SearchQuery, filters: dict,
                         tenant: int, total: int) -> tuple[list[SearchHit], str]:
        k, embedding = min(first_k(query.limit, tenant, total), self.vector_max_k), vector.tolist()
        while True:
            rows = await self.runner.read("search/vector", k=k, embedding=embedding, limit=query.limit, **filters)
            if len(rows) >= min(query.limit, tenant) or k >= total:
                break
            if k >= self.vector_max_k:
                # The tenant's matches sit too deep in the global ranking: exact is the honest answer.
                return await self._exact(vector, query, filters), "exact"
            k = min(next_k(k, total), self.vector_max_k)
        hits = [SearchHit(memory=memory_from_map(r["memory"]), score=index_score_to_cosine(r["score"]))
                for r in rows]
        return hits, "index"
