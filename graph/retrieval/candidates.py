"""Candidates for one tenant from the vector and the full-text index, filtered in Cypher.

Both indexes answer globally, so filtering by tenant afterwards can starve a small tenant. A
tenant with at most `exact_scan_max` shown memories is ranked exactly inside the database; a
larger one goes through the vector index, widening k until it has enough, and falling back to
exact ranking when its matches sit too deep in the global order. On ArcadeDB a large tenant holding
a small share of the index is searched over its own memories instead (the index takes them as an
allow-list and ranks them exactly), up to `vector_in_tenant_max` of them; Neo4j 5.26 cannot, and
always reads the global page. Keyword candidates are scored by
BM25 over the tenant's own memories, so one tenant's data never moves another's ranking: a small
tenant's come from a scan of its memories for the query terms, a large one's from the full-text
index, asked per term for the tenant's memories holding it (at most `keyword_max_k` each), with the
tenant's size and average length read apart and kept briefly (keyword_stats.py).

Each candidate comes with what the rerank weighs (its score, cosine, confidence, importance and
age), so a search ranks on these and hydrates only the memories it returns: moving whole memories
over Bolt cost more than the ranking queries themselves (docs/benchmarks.md)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.core.timeutil import from_epoch_ms
from graph.retrieval import keywords
from graph.retrieval.ann_widening import after_page, first_k, next_k, search_own_list
from graph.retrieval.bm25 import K1, B, bm25
from graph.retrieval.cosine_scale import CosineScale, index_score_to_cosine
from graph.retrieval.keyword_stats import DEFAULT_TTL, KeywordStats, TenantStats
from graph.retrieval.tenant_hints import TenantSizeHints
from graph.retrieval.visibility import Visibility
from graph.store.gateway import GraphRunner

UNBOUNDED = 2**31 - 1
# A large tenant's keyword candidates are filtered this many per hit asked for, best scored first:
# enough when few of the best are hidden; otherwise the rest are filtered too.
KEYWORD_FILTERED_PER_HIT = 3


@dataclass(frozen=True)
class Found:
    """A shown candidate as its retriever saw it: enough to rank it before it is hydrated."""
    score: float  # cosine (vector) or BM25 (keyword)
    similarity: float | None  # cosine to the query; None for keyword hits (known once hydrated)
    confidence: float
    importance: float
    updated_at: datetime
    matched: tuple[str, ...] | None = None  # keyword hits: the term stems it holds; None: name them from `text`
    text: str | None = None  # a keyword hit whose matched terms the statement could not list whole
    event_at: datetime | None = None  # the time the memory refers to, when it says so: recency counts from it
    threaded: bool = False  # a turn of a conversation thread: its neighbours may join the ranking


@dataclass
class Candidates:
    found: dict[str, Found]  # id -> candidate, best first, at most the pool
    strategy: str = "index"  # vector candidates: "exact" or "index"
    # Explain only:
    reasons: dict[str, str | None] = field(default_factory=dict)  # every listed id -> why hidden (None: shown)
    hidden_statuses: dict[str, int] = field(default_factory=dict)  # hidden by status, counted not listed
    unseen_kept: int = 0  # passed the filters, not listed


class CandidateSearch:
    def __init__(self, runner: GraphRunner, scale: CosineScale, *, exact_scan_max: int, vector_max_k: int,
                 keyword_max_k: int, keyword_stats_ttl: float = DEFAULT_TTL, vector_in_tenant_max: int = 0) -> None:
        self.runner, self.scale = runner, scale
        self.exact_scan_max, self.vector_max_k, self.keyword_max_k = exact_scan_max, vector_max_k, keyword_max_k
        self.vector_in_tenant_max = vector_in_tenant_max  # 0: the global page only (Neo4j)
        self.hints = TenantSizeHints()
        self.stats = KeywordStats(self._read_stats, keyword_stats_ttl)

    async def vector(self, embedding: list[float], visibility: Visibility, pool: int) -> Candidates:
        found = None
        if not self.hints.is_large(visibility.key):
            found = await self._exact(embedding, visibility, pool, scan_cap=self.exact_scan_max + 1)
            self.hints.mark(visibility.key, large=found is None)
        if found is None:
            found = await self._via_index(embedding, visibility, pool)
        return found

    async def keyword(self, terms: keywords.Terms, visibility: Visibility, pool: int) -> Candidates:
        """A small tenant's stored stems are scanned for the terms (keywords.stemmed); a large
        one goes through the full-text index over them."""
        params = visibility.params()
        if not self.hints.is_large(visibility.key):
            stems = list(terms.stems)
            row = await self.runner.read_one("retrieval/keyword_exact", scan_cap=self.exact_scan_max + 1,
                                             needles=keywords.needles(stems), **params)
            if row["candidates"] <= self.exact_scan_max:
                # Scored over the shown memories only, so explain's extra rows never move a score.
                shown = [(h["id"], h["matched"], h["words"]) for h in row["hits"] if h["reason"] is None]
                scores = bm25(shown, row["candidates"], row["average_words"] or 0.0)
                return _listed(row["hits"], pool, lambda h: scores[h["id"]], lambda h: None, _matched(stems))
            self.hints.mark(visibility.key, large=True)
        # One index query per term, each naming the tenant (graph/core/tenant_token.py): its answer is
        # the term's postings in this tenant, so BM25 is scored over the tenant alone, as above.
        asked = [(t, q) for t in terms.stems if (q := keywords.lucene_query([t], visibility.agent)) is not None]
        queries = [q for _, q in asked]
        if not queries:
            return Candidates(found={})
        stats = await self.stats.of(visibility.agent)
        # The filters run on the best `top` scored only; when too few of those are shown, the rest
        # are read too. explain lists every hidden candidate, so it reads them all at once.
        top = UNBOUNDED if visibility.explain else pool * KEYWORD_FILTERED_PER_HIT
        while True:
            row = await self.runner.read_one("retrieval/keyword_postings", queries=queries, cap=self.keyword_max_k,
                                             top=top, limit=pool, k1=K1, b=B, memories=stats.memories,
                                             average_words=stats.average_words, **params)
            kept = sum(1 for h in row["hits"] if h["reason"] is None)
            if kept >= pool or row["candidates"] <= top:
                # A term whose postings were capped may be held by a hit that does not list it.
                matched = _matched([t for t, _ in asked]) if not row["capped"] else None
                return _listed(row["hits"], pool, lambda h: h["score"], lambda h: None, matched)
            top = UNBOUNDED

    async def _read_stats(self, agent: str) -> TenantStats:
        row = await self.runner.read_one("retrieval/keyword_stats", agent=agent)
        return TenantStats(memories=int(row["memories"]), words=int(row["words"]))

    def _cosine(self, hit: dict[str, Any]) -> float | None:
        """The backend's vector.similarity.cosine, calibrated; None for a memory without an embedding."""
        return self.scale.to_cosine(hit["similarity"]) if hit["similarity"] is not None else None

    async def _exact(self, embedding: list[float], visibility: Visibility, pool: int,
                     scan_cap: int) -> Candidates | None:
        """Exact ranking, or None when the tenant has more than scan_cap - 1 shown memories."""
        row = await self.runner.read_one("retrieval/exact", scan_cap=scan_cap, embedding=embedding, limit=pool,
                                         **visibility.params())
        if row["candidates"] >= scan_cap:
            return None
        hits = row["hits"]
        found = _listed(hits, pool, self._cosine, self._cosine)
        found.strategy = "exact"
        if visibility.explain:
            found.unseen_kept = row["candidates"] - len(hits)
            counts = await self.runner.read("retrieval/status_counts", agent=visibility.agent,
                                            statuses=list(visibility.statuses))
            found.hidden_statuses = {r["status"]: r["n"] for r in counts}
        return found

    async def _via_index(self, embedding: list[float], visibility: Visibility, pool: int) -> Candidates:
        key = visibility.key
        if (self.vector_in_tenant_max and search_own_list(self.hints.share(key))
                and not self.hints.beyond_own_list(key)):
            found = await self._over_own_list(embedding, visibility, pool)
            if found is not None:
                return found
        k = first_k(pool, self.vector_max_k, self.hints.share(key))
        params = visibility.params()
        while True:
            row = await self.runner.read_one("retrieval/vector", k=k, embedding=embedding, **params)
            kept = sum(1 for h in row["hits"] if h["reason"] is None)
            if row["scanned"] == k:  # a full page says how much of the index is this tenant's
                self.hints.observe_share(key, max(kept, 1) / k)
            found = await self._after_page(row, kept, k, embedding, visibility, pool)
            if found is not None:
                return found
            k = next_k(k, UNBOUNDED, self.vector_max_k, kept, pool)

    async def _over_own_list(self, embedding: list[float], visibility: Visibility, pool: int) -> Candidates | None:
        """The vector index searched over this tenant's memories alone (ArcadeDB), or None when the
        tenant has more than `vector_in_tenant_max` shown memories (remembered: the global page then)."""
        k = first_k(pool, self.vector_max_k, 1.0)  # every hit is the tenant's; the margin covers the filters
        params = visibility.params()
        while True:
            row = await self.runner.read_one("retrieval/arcadedb/vector_in_tenant", k=k, embedding=embedding,
                                             scan_cap=self.vector_in_tenant_max + 1, **params)
            if row["members"] > self.vector_in_tenant_max:
                self.hints.mark_beyond_own_list(visibility.key)
                return None
            if row["scanned"] >= row["members"]:
                # Every member was ranked: the answer is whole, however few it shows (a filtered
                # search), so no exact scan repeats it.
                return _index_page(row, pool)
            kept = sum(1 for h in row["hits"] if h["reason"] is None)
            found = await self._after_page(row, kept, k, embedding, visibility, pool)
            if found is not None:
                return found
            k = next_k(k, UNBOUNDED, self.vector_max_k, kept, pool)

    async def _after_page(self, row: dict[str, Any], kept: int, k: int, embedding: list[float],
                          visibility: Visibility, pool: int) -> Candidates | None:
        """The candidates once a page of `k` holding `kept` shown ones is enough, or None to widen it."""
        step = after_page(kept, pool, row["scanned"], k, self.vector_max_k)
        if step == "exact":
            # The tenant's matches sit too deep in the global order, or the index stopped short
            # of them (on its own list: it had no more shown): rank the tenant exactly instead.
            found = await self._exact(embedding, visibility, pool, scan_cap=UNBOUNDED)
            assert found is not None
            return found
        if step == "widen":
            return None
        return _index_page(row, pool)


def _index_page(row: dict[str, Any], pool: int) -> Candidates:
    """The candidates of an index page: its score is (1 + cosine) / 2."""
    cosine = lambda h: index_score_to_cosine(h["score"])  # noqa: E731
    return _listed(row["hits"], pool, cosine, cosine)


def _matched(stems: list[str]) -> Callable[[dict[str, Any]], tuple[str, ...]]:
    """A keyword hit's matched terms, from the indices the statement lists (into `stems`, in order)."""
    return lambda h: tuple(stems[i] for i in sorted(h["matched"]))


def _listed(hits: list[dict[str, Any]], pool: int, score_of, similarity_of,
            matched_of: Callable[[dict[str, Any]], tuple[str, ...]] | None = None) -> Candidates:
    kept = sorted((h for h in hits if h["reason"] is None), key=lambda h: (-score_of(h), h["id"]))
    found = {h["id"]: Found(score=score_of(h), similarity=similarity_of(h), confidence=float(h["confidence"]),
                            importance=float(h["importance"]), updated_at=from_epoch_ms(h["updated_ms"]),
                            matched=matched_of(h) if matched_of is not None else None, text=h.get("text"),
                            event_at=from_epoch_ms(h["event_ms"]) if h.get("event_ms") is not None else None,
                            threaded=bool(h.get("threaded")))
             for h in kept[:pool]}
    return Candidates(found=found, reasons={h["id"]: h["reason"] for h in hits})
