"""Hybrid search that explains itself: vector and full-text candidates, fused into a calibrated
relevance (graph/retrieval/fusion.py), reranked on four signals (rerank.py), filtered in Cypher, with
explain counts on request."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterable
from dataclasses import asdict, replace
from datetime import datetime
from typing import Any, NamedTuple

from graph.core.errors import InvalidInput
from graph.core.tasks import cancel_and_wait
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_epoch_ms, iso, utcnow
from graph.embedding.encoder import AsyncEncoder
from graph.links.expansion import related
from graph.memories.access import AccessTracker
from graph.memories.records import memory_from_map
from graph.preferences import PreferenceService, cap_ceiling
from graph.retrieval import keyword_stats, keywords, neighbours
from graph.retrieval.across_tenants import AcrossTenants, merge
from graph.retrieval.candidates import Candidates, CandidateSearch, Found
from graph.retrieval.cosine_scale import CosineScale
from graph.retrieval.funnel import funnel
from graph.retrieval.fusion import best_similarity, cosine_floor, keyword_score, keyword_weight
from graph.retrieval.model import (
    MAX_AGENTS,
    MAX_SEARCHES,
    Hydrated,
    SearchHit,
    SearchMeta,
    SearchQuery,
    SearchResult,
    check_query,
)
from graph.retrieval.rerank import Signals, Weights
from graph.retrieval.scoring import Evidence, score
from graph.retrieval.visibility import Visibility
from graph.store.gateway import GraphRunner

log = logging.getLogger(__name__)

# Each retriever's ranking pool: 2 x limit, 100..200. The fusion's weights were fitted on pools of
# this depth (bench/fusion_fit.py); at 30 a keyword-only candidate took the 30th best cosine, a
# floor so high that hybrid search fell below vector search on RealMem (docs/benchmarks.md).
POOL_MIN, POOL_FACTOR, POOL_MAX = 100, 2, 200

# Once writes pause, one search per written tenant's name length (below) runs in the background, so that
# the first search after a bulk load finds its statements planned for the grown graph. A question
# of typical shape: Neo4j keys a plan on each string's and list's size rounded up to a power of ten
# (docs/backends.md §2.23), so the probe's text and its terms fall where most questions' do.
PROBE_TEXT = "what does the user usually cook for dinner"
PLANS_QUIET = 1.0  # seconds without a write before the probe runs


class _Ranked(NamedTuple):
    """A candidate scored and reranked, not yet hydrated."""
    id: str
    score: float
    similarity: float | None
    keyword_score: float | None
    signals: Signals
    composite: float
    keyword_hits: tuple[str, ...]
    threaded: bool = False
    neighbour_of: str | None = None  # lifted by the hit beside it in its thread (neighbours.py)


def _length_bucket(n: int) -> int:
    """`n` rounded up to a power of ten (0 stays 0), as Neo4j buckets a parameter's size."""
    bucket = 1 if n else 0
    while bucket < n:
        bucket *= 10
    return bucket


def pool_size(limit: int) -> int:
    return min(POOL_MAX, max(POOL_MIN, POOL_FACTOR * limit))


class RetrievalService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, scale: CosineScale, access: AccessTracker, *,
                 exact_scan_max: int, vector_max_k: int, keyword_max_k: int,
                 keyword_stats_ttl: float = keyword_stats.DEFAULT_TTL, vector_in_tenant_max: int = 0,
                 neighbour_lift: float = neighbours.DEFAULT_LIFT, preferences: PreferenceService | None = None) -> None:
        self.runner, self.encoder, self.scale, self.access = runner, encoder, scale, access
        self.neighbour_lift = neighbour_lift  # 0: conversation turns rank on their own
        self.preferences = preferences  # each agent's sensitivity ceiling caps its searches
        self.candidates = CandidateSearch(runner, scale, exact_scan_max=exact_scan_max, vector_max_k=vector_max_k,
                                          keyword_max_k=keyword_max_k, keyword_stats_ttl=keyword_stats_ttl,
                                          vector_in_tenant_max=vector_in_tenant_max)
        self._stale = False
        self._warming: asyncio.Task | None = None
        self._probe: list[float] | None = None  # the warm-up query's vector
        self.warm_ups = 0  # background index warm-ups run, for operators and tests
        self.plan_probes = 0  # background probe searches run, for operators and tests
        self._written: dict[int, str] = {}  # a tenant written since the last probe, per name-length bucket

    def vectors_written(self, agents: Iterable[str] = ()) -> None:
        """New vectors were committed for `agents`: fold them into the ANN index now, in the
        background. ArcadeDB builds its HNSW graph lazily, on the first vector query after writes
        (2.3 s after 4,000 unqueried vectors, 78 s after a 100k load), and that query would be a
        user's search; one k=1 query after each write keeps every later build to tens of
        milliseconds. Then, once writes have paused for a second, one search in a written tenant:
        Neo4j plans a statement again once the graph's counts have moved enough, and the first
        search after a bulk load paid for planning all of its statements (about 2 s at 10k).
        Writes that land while a warm-up runs are folded in by one more, not one each."""
        for agent in agents:
            self._written[_length_bucket(len(agent))] = agent
        self._stale = True
        if self._warming is None or self._warming.done():
            self._warming = asyncio.create_task(self._keep_warm(), name="index-warm-up")

    async def _keep_warm(self) -> None:
        while self._stale:
            self._stale = False
            try:
                await self.warm_up()
                self.warm_ups += 1
                # The plans once writes pause: probed during a bulk load, Neo4j would plan every
                # statement again at each step of the graph's growth, at the load's expense.
                await asyncio.sleep(PLANS_QUIET)
                if not self._stale:
                    await self._probe_plans()
            except Exception:  # advisory: a search will build and plan what this did not
                log.exception("background index warm-up failed")

    async def _probe_plans(self) -> None:
        """One untracked search per tenant in `_written`, its results dropped: a read inside that
        tenant, run for the plans and caches it leaves behind."""
        written, self._written = self._written, {}
        for agent in written.values():
            query = SearchQuery(agent=agent, text=PROBE_TEXT, track_access=False)
            # As in a tenant this process has not sized yet: the scans that size a tenant run too,
            # and theirs are the plans a bulk load leaves the most out of date.
            self.candidates.hints.mark(Visibility.of(query).key, large=False)
            await self._search(query, self._probe or await self.embed(PROBE_TEXT))
            self.plan_probes += 1

    async def close(self) -> None:
        await cancel_and_wait(self._warming)

    async def warm_up(self) -> None:
        """ArcadeDB builds its HNSW graph on the first vector query after a load (11-18 s per 10k
        vectors, docs/backends.md §2.7): pay that at start-up, not on a user's first search."""
        if self._probe is None:
            # Embedded once: the probe runs after every write, and the model is the writes' bottleneck.
            self._probe = await self.embed("warm-up")
        await self.runner.read("retrieval/vector", k=1, embedding=self._probe,
                               **Visibility.of(SearchQuery(agent="", text="warm-up"), explain=False).params())

    async def embed(self, text: str) -> list[float]:
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("text", "must contain non-whitespace text")
        return (await self.encoder.encode_one(text)).tolist()

    async def search(self, query: SearchQuery, embedding: list[float] | Awaitable[list[float]] | None = None
                     ) -> SearchResult:
        """Without an embedding, the query text is embedded while the agent's preferences are read
        and the full-text query runs."""
        check_query(query)
        if isinstance(embedding, list):
            self._check_embedding(embedding)
        # The text's vector does not depend on the preferences: it is computed while they are read
        # (a read of its own when the agent's are not held; before, the embedding waited for it).
        own = asyncio.ensure_future(self.embed(query.text)) if embedding is None else None
        try:
            query = await self.honour_preferences(query)
            vector = own if own is not None else embedding
            assert vector is not None
            return await self._search(query, vector)
        finally:
            if own is not None and not own.done():
                await cancel_and_wait(own)  # the search failed before it needed the vector

    async def honour_preferences(self, query: SearchQuery) -> SearchQuery:
        """The query as the agent's memory preferences allow it: a sensitivity ceiling no higher
        than the agent's (graph/preferences)."""
        if self.preferences is None:
            return query
        ceiling = cap_ceiling(query.sensitivity_ceiling, await self.preferences.get(query.agent))
        return query if ceiling == query.sensitivity_ceiling else replace(query, sensitivity_ceiling=ceiling)

    async def search_many(self, queries: list[SearchQuery]) -> list[SearchResult]:
        """One model call for all the query texts, then the searches side by side."""
        if not isinstance(queries, (list, tuple)) or not 1 <= len(queries) <= MAX_SEARCHES:
            raise InvalidInput("searches", f"must hold 1 to {MAX_SEARCHES} searches")
        for i, query in enumerate(queries):
            try:
                check_query(query)
            except InvalidInput as exc:
                raise InvalidInput(f"searches[{i}].{exc.field}", exc.message) from None
        queries = [await self.honour_preferences(q) for q in queries]
        embeddings = await self.encoder.encode([q.text for q in queries])
        return list(await asyncio.gather(*(self._search(q, e.tolist())
                                           for q, e in zip(queries, embeddings, strict=True))))

    async def search_agents(self, query: SearchQuery, agents: list[str]) -> AcrossTenants:
        """Administrators: the same search in several tenants, each one filtered inside its own queries."""
        check_query(query)
        if isinstance(agents, (str, bytes)) or not isinstance(agents, (list, tuple)):
            raise InvalidInput("agents", "must be a list of agents")
        agents = [check_agent(a, f"agents[{i}]") for i, a in enumerate(dict.fromkeys(agents))]
        if not agents:
            raise InvalidInput("agents", "must name at least one agent")
        if len(agents) > MAX_AGENTS:
            raise InvalidInput("agents", f"names {len(agents)} agents; the limit is {MAX_AGENTS}")
        embedding = await self.embed(query.text)
        honoured = [await self.honour_preferences(replace(query, agent=a)) for a in agents]
        results = await asyncio.gather(*(self._search(q, embedding) for q in honoured))
        return merge(dict(zip(agents, results, strict=True)), query.limit, reranked=query.rerank is not None)

    async def hydrate(self, ids: list[str], embedding: list[float], visibility: Visibility) -> dict[str, Hydrated]:
        """The memories behind `ids` that `visibility` shows, by id, in one query: each with its claim,
        its cosine to the query (`embedding`) and who superseded it. Ids of other tenants, and
        memories the filter hides, are left out."""
        if isinstance(ids, (str, bytes)) or not isinstance(ids, (list, tuple)) \
                or not all(isinstance(i, str) for i in ids):
            raise InvalidInput("ids", "must be a list of memory ids")
        self._check_embedding(embedding)
        if not isinstance(visibility, Visibility):
            raise InvalidInput("visibility", "must be a Visibility (Visibility.of(query))")
        return await self._hydrate(list(ids), embedding, visibility)

    def _check_embedding(self, embedding: Any) -> None:
        if not isinstance(embedding, list) or len(embedding) != self.encoder.dimensions:
            raise InvalidInput("embedding", f"must be a list of {self.encoder.dimensions} numbers")

    async def _hydrate(self, ids: list[str], embedding: list[float], visibility: Visibility) -> dict[str, Hydrated]:
        if not ids:
            return {}
        rows = await self.runner.read("retrieval/hydrate", ids=ids, embedding=embedding,
                                      **visibility.params(explain=False))
        return {row["memory"]["id"]: Hydrated(
                    memory=memory_from_map(row["memory"], row["claim"]),
                    similarity=self.scale.to_cosine(row["similarity"]) if row["similarity"] is not None else None,
                    superseded_by=row["superseded_by"])
                for row in rows}

    async def _search(self, query: SearchQuery, embedding: list[float] | Awaitable[list[float]]) -> SearchResult:
        shown = Visibility.of(query)
        pool = pool_size(query.limit)
        # Keyword search matches stems; explain names the query's words they came from.
        terms = keywords.stemmed(keywords.terms(query.text))

        async def vector_side() -> tuple[list[float], Candidates]:
            vec = embedding if isinstance(embedding, list) else await embedding
            return vec, await (self.candidates.vector(vec, shown, pool) if query.mode != "keyword" else _none())

        (embedding, vector), keyword = await asyncio.gather(
            vector_side(),
            self.candidates.keyword(terms, shown, pool) if query.mode != "vector" and terms else _none())
        found = {**keyword.found, **vector.found}  # a memory both found keeps the vector view of it
        weights = query.rerank or Weights()
        now = utcnow()
        best_bm25 = max((f.score for f in keyword.found.values()), default=0.0)
        best_cosine = best_similarity([f.similarity for f in found.values()]) if query.mode != "keyword" else 0.0
        floor = cosine_floor([f.similarity for f in vector.found.values()], pool)
        ranked, below, evidence_of = [], 0, {}
        for id_, f in found.items():
            matched: list[str] = []
            if id_ in keyword.found:
                hit = keyword.found[id_]
                matched = list(hit.matched) if hit.matched is not None else keywords.hits(list(terms.stems),
                                                                                           hit.text or "")
                bm25, coverage = keyword.found[id_].score, len(matched) / len(terms)
                evidence = Evidence(f.similarity, floor, bm25, coverage, keyword_score(bm25, best_bm25, coverage),
                                    len(terms))
            else:
                evidence = Evidence(f.similarity, floor, terms=len(terms))
            scored = score(query.mode, evidence, f, weights, now)
            if query.min_similarity is not None and scored.match < query.min_similarity:
                below += 1
                continue
            evidence_of[id_] = (evidence, f)
            ranked.append(_Ranked(id_, scored.relevance, f.similarity, evidence.keyword, scored.signals,
                                  scored.composite, tuple(terms.word(t) for t in matched), f.threaded))
        order = (lambda r: (-r.composite, -r.score, r.id)) if query.rerank else (lambda r: (-r.score, r.id))
        ranked = sorted(ranked, key=order)
        if self.neighbour_lift > 0 and any(r.threaded for r in ranked[:neighbours.TOP]):
            ranked = sorted(await self._with_neighbours(query, ranked, evidence_of, embedding, shown, floor,
                                                        len(terms), weights, now), key=order)
        ranked = ranked[:query.limit]
        # Only what is returned is hydrated, and expanded: both at once, the expansion from the ranked
        # results (a memory changed since it was ranked drops out at hydration, and its related with it).
        ids = [r.id for r in ranked]
        by_id, reached = await asyncio.gather(self._hydrate(ids, embedding, shown),
                                              related(self.runner, ids, query.expand, shown.params()))
        hits = [SearchHit(memory=by_id[r.id].memory, score=r.score,
                          # a keyword-only hit's cosine is known once hydrated
                          similarity=r.similarity if r.similarity is not None else by_id[r.id].similarity,
                          keyword_score=r.keyword_score, signals=r.signals, composite=r.composite,
                          superseded_by=by_id[r.id].superseded_by,
                          keyword_hits=r.keyword_hits if query.explain else None, neighbour_of=r.neighbour_of)
                for r in ranked if r.id in by_id]
        if query.expand.depth:
            hits = [replace(h, related=reached.of(h.memory.id), related_truncated=h.memory.id in reached.cut)
                    for h in hits]
        if query.track_access:
            self.access.record(query.agent, [h.memory.id for h in hits])
        meta = self._meta(query, vector, keyword, below, len(hits), list(terms.words)) if query.explain else None
        return SearchResult(hits=hits, weights=weights, visibility=shown, strategy=vector.strategy, meta=meta,
                            best_similarity=best_cosine)

    async def _with_neighbours(self, query: SearchQuery, ranked: list[_Ranked],
                               evidence_of: dict[str, tuple[Evidence, Found]], embedding: list[float],
                               shown: Visibility, floor: float, terms: int, weights: Weights,
                               now: datetime) -> list[_Ranked]:
        """The ranking with the conversation turns around its best threaded hits (neighbours.py):
        each reached turn ranks with at least its lift, one the retrievers missed joins the ranking
        with its own cosine as evidence. One query, after the candidates."""
        top = [r for r in ranked[:neighbours.TOP] if r.threaded]
        params = {k: v for k, v in shown.params().items() if k != "explain"}
        rows = await self.runner.read("retrieval/neighbours", ids=[r.id for r in top], embedding=embedding, **params)
        lifted = neighbours.lifts((neighbours.Reached(r["from_id"], r["id"], r["steps"]) for r in rows),
                                  {r.id: r.score for r in top}, self.neighbour_lift)
        by_id = {r.id: r for r in ranked}
        for row in rows:
            id_ = row["id"]
            if id_ in evidence_of or id_ not in lifted:
                continue
            cosine = self.scale.to_cosine(row["similarity"]) if row["similarity"] is not None else None
            evidence_of[id_] = (Evidence(cosine, floor, terms=terms), Found(
                score=cosine or 0.0, similarity=cosine, confidence=float(row["confidence"]),
                importance=float(row["importance"]), updated_at=from_epoch_ms(row["updated_ms"]),
                event_at=from_epoch_ms(row["event_ms"]) if row["event_ms"] is not None else None, threaded=True))
        for id_, lift in lifted.items():
            evidence, f = evidence_of[id_]
            scored = score(query.mode, evidence, f, weights, now, at_least=lift.relevance)
            if query.min_similarity is not None and scored.match < query.min_similarity:
                continue
            held = by_id.get(id_)
            if held is not None and held.score >= scored.relevance:
                continue  # relevant enough on its own
            by_id[id_] = _Ranked(id_, scored.relevance, f.similarity, evidence.keyword, scored.signals,
                                 scored.composite, held.keyword_hits if held else (), True, lift.beside)
        return list(by_id.values())

    @staticmethod
    def _meta(query: SearchQuery, vector: Candidates, keyword: Candidates, below: int, returned: int,
              terms: list[str]) -> SearchMeta:
        reasons = {**keyword.reasons, **vector.reasons}
        if vector.strategy == "exact":
            # Exact ranking counted the whole tenant; keyword hits add no new memories to that.
            reasons = dict(vector.reasons)
        counts, excluded = funnel(reasons, vector.hidden_statuses, vector.unseen_kept, below, returned)
        searched = terms if query.mode != "vector" else []
        return SearchMeta(options=options_of(query), counts=counts, excluded=excluded, strategy=vector.strategy,
                          keyword_terms=tuple(searched),
                          keyword_weight=keyword_weight(len(searched)) if query.mode == "hybrid" else 1.0)


def options_of(query: SearchQuery) -> dict[str, Any]:
    """The effective options, for explain: no embeddings, no internals."""
    out = {k: v for k, v in asdict(query).items() if k not in ("agent", "text", "explain", "track_access")}
    out["rerank"] = query.rerank.as_dict() if query.rerank else False
    out["expand"] = {**out["expand"], "kinds": list(query.expand.kinds)}
    for k, v in out.items():
        if isinstance(v, datetime):
            out[k] = iso(v)
        elif isinstance(v, tuple):
            out[k] = list(v)
    return out


async def _none() -> Candidates:
    return Candidates(found={})
