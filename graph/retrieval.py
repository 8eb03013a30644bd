"""Semantic search that is correct per tenant.

The vector index answers the global top-k, so filtering by tenant afterwards can starve a small
tenant. A tenant with at most `exact_scan_max` candidates is ranked exactly inside the database;
a larger one goes through the index, widening k until it has enough, and falling back to exact
ranking when its matches sit too deep in the global order."""
from __future__ import annotations

from graph.embedder import AsyncEncoder
from graph.memories import MemoryService
from graph.model import SearchHit, SearchQuery, SearchResult
from graph.records import memory_from_map
from graph.runner import GraphRunner
from graph.similarity import CosineScale, first_k, index_score_to_cosine, next_k
from graph.tenant_hints import TenantSizeHints

UNBOUNDED = 2**31 - 1


class RetrievalService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, memories: MemoryService, scale: CosineScale, *,
                 exact_scan_max: int, vector_max_k: int) -> None:
        self.runner, self.encoder, self.memories, self.scale = runner, encoder, memories, scale
        self.exact_scan_max, self.vector_max_k = exact_scan_max, vector_max_k
        self.hints = TenantSizeHints()

    async def warm_up(self) -> None:
        """ArcadeDB builds its HNSW graph on the first vector query after a load (11-18 s per 10k
        vectors, backends.md §2.1): pay that at start-up, not on a user's first search."""
        embedding = (await self.encoder.encode_one("warm-up")).tolist()
        await self.runner.read("search/vector", k=1, embedding=embedding, limit=1, agent="", statuses=[],
                               memory_types=None, session_id=None)

    async def search(self, query: SearchQuery) -> SearchResult:
        embedding = (await self.encoder.encode_one(query.text)).tolist()
        filters = {"agent": query.agent, "statuses": list(query.statuses), "session_id": query.session_id,
                   "memory_types": list(query.memory_types) if query.memory_types else None}
        key = (query.agent, tuple(query.statuses), query.memory_types, query.session_id)
        result = None
        if not self.hints.is_large(key):
            result = await self._exact(embedding, query, filters, scan_cap=self.exact_scan_max + 1)
            self.hints.mark(key, large=result is None)
        if result is None:
            result = await self._via_index(embedding, query, filters)
        if query.min_score is not None:
            result = SearchResult([h for h in result.hits if h.score >= query.min_score], result.strategy)
        return result

    async def _exact(self, embedding: list[float], query: SearchQuery, filters: dict,
                     scan_cap: int) -> SearchResult | None:
        """Exact ranking, or None when the tenant has more than scan_cap - 1 candidates."""
        rows = await self.runner.read("search/exact", scan_cap=scan_cap, embedding=embedding,
                                      limit=query.limit, **filters)
        if rows and rows[0]["candidates"] >= scan_cap:
            return None
        memories = await self.memories.get_many(query.agent, [r["id"] for r in rows])
        hits = [SearchHit(memory=memories[r["id"]], score=self.scale.to_cosine(r["similarity"]))
                for r in rows if r["id"] in memories]
        return SearchResult(hits=hits, strategy="exact")

    async def _via_index(self, embedding: list[float], query: SearchQuery, filters: dict) -> SearchResult:
        k, total = first_k(query.limit, self.vector_max_k), None
        while True:
            rows = await self.runner.read("search/vector", k=k, embedding=embedding, limit=query.limit, **filters)
            if len(rows) >= query.limit:
                break
            if total is None:
                [row] = await self.runner.read("meta/index_size")
                total = row["total"]
            if k >= total:
                break  # the whole index was ranked: these are all the tenant's matches
            if k >= self.vector_max_k:
                # The tenant's matches sit too deep in the global order: rank it exactly instead.
                exact = await self._exact(embedding, query, filters, scan_cap=UNBOUNDED)
                assert exact is not None
                return exact
            k = next_k(k, total, self.vector_max_k)
        hits = [SearchHit(memory=memory_from_map(r["memory"]), score=index_score_to_cosine(r["score"]))
                for r in rows]
        return SearchResult(hits=hits, strategy="index")
