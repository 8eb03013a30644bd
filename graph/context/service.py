"""Context for an agent's prompt (docs/retrieval.md, Context): a search pool of twice max_memories,
expanded along typed edges (by default one hop, every kind, both ways: graph/links/expansion.py),
then either the best max_memories or, with max_tokens, a greedy knapsack that never exceeds the
budget. Expansion screens what it reaches through the search's own visibility filter, so a
superseded memory comes in only when the request shows superseded memories.

Context uses retrieval's public surface only (graph/retrieval/__init__.py): the search, its
Visibility for every later read of the request, `hydrate` for the memories expansion reached and
`score` to put them on the search's scale."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from graph.context.format import ContextItem
from graph.context.model import Candidate, ContextQuery, ContextResult, check_context
from graph.context.packing import pack, top
from graph.context.tokens import TokenEstimator
from graph.core.timeutil import utcnow
from graph.core.vocab import SUPERSEDED
from graph.links.expansion import Expand, Reached, related
from graph.preferences import PreferenceService
from graph.retrieval import Evidence, RetrievalService, SearchQuery, Visibility, Weights, check_query, score
from graph.store.gateway import GraphRunner

__all__ = ["Candidate", "ContextQuery", "ContextResult", "ContextService"]


class ContextService:
    def __init__(self, runner: GraphRunner, retrieval: RetrievalService, estimate: TokenEstimator,
                 preferences: PreferenceService | None = None,
                 asks_about_the_past: Callable[[str], bool] = lambda text: False) -> None:
        self.runner, self.retrieval, self.estimate = runner, retrieval, estimate
        self.preferences = preferences  # each agent's default budget and per-type quotas
        # Whether a question asks how things were (the asking router's reading, given by graph/services.py):
        # then the past comes in, in its own section; otherwise only the present does.
        self.asks_about_the_past = asks_about_the_past

    async def context(self, query: ContextQuery) -> ContextResult:
        check_context(query)
        search = check_query(replace(query.search, limit=2 * query.max_memories, track_access=False,
                                     expand=Expand()))
        past = self.asks_about_the_past(search.text)
        asked_for_superseded = SUPERSEDED in search.statuses
        if past and not asked_for_superseded:
            search = replace(search, statuses=(*search.statuses, SUPERSEDED))
        prefs = await self.preferences.get(search.agent) if self.preferences is not None else None
        max_tokens = query.max_tokens if query.max_tokens is not None or prefs is None else prefs.context_max_tokens
        quotas = prefs.type_quotas if prefs is not None else {}
        weights = search.rerank or Weights()
        # Embedded while the search's full-text query runs; the memories reached need the vector too.
        embedding = asyncio.ensure_future(self.retrieval.embed(search.text))
        result = await self.retrieval.search(search, embedding)
        shown = result.visibility  # the search's filter, built once for the whole request
        reached = await related(self.runner, [h.memory.id for h in result.hits], query.expand, shown.params())
        pool = {h.memory.id: Candidate(h.memory, h.composite, "search", related=reached.of(h.memory.id),
                                       related_truncated=h.memory.id in reached.cut)
                for h in result.hits}
        pool.update(await self._reached(search, shown, await embedding, reached, set(pool), weights))

        # The past only for a question about it, or a request that asked for superseded memories. A request
        # that travels in time (as_of, known_at) sees what held then, which is superseded by now.
        then = search.as_of is not None or search.known_at is not None
        items = [i for i in (_item(c) for c in pool.values())
                 if past or not (i.past or (i.historical and not (asked_for_superseded or then)))]
        packed = pack(items, max_tokens, self.estimate, quotas) if max_tokens is not None \
            else top(items, query.max_memories, self.estimate, quotas)
        self.retrieval.access.record(search.agent, [i.id for i in packed.included])
        return ContextResult(packed=packed, candidates=pool, max_tokens=max_tokens, search_meta=result.meta,
                             past=past)

    async def _reached(self, search: SearchQuery, shown: Visibility, embedding: list[float], reached: Reached,
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
        # Hydrated through the same filter (expansion screened them already; this also gives the cosine),
        # then relevant on the search's own absolute scale, from their cosine alone.
        hydrated = await self.retrieval.hydrate(sorted(kinds), embedding, shown)
        now, out = utcnow(), {}
        for id_, h in hydrated.items():
            value = score(search.mode, Evidence(h.similarity), h.memory, weights, now).composite
            out[id_] = Candidate(h.memory, value, "+".join(sorted(kinds[id_])), tuple(sorted(starts[id_])))
        return out


def _item(c: Candidate) -> ContextItem:
    m = c.memory
    return ContextItem(id=m.id, text=m.text, memory_type=m.memory_type, value=c.value, valid_from=m.valid_from,
                       valid_until=m.valid_until, historical=m.status == SUPERSEDED,
                       past=m.historical and m.status != SUPERSEDED)
