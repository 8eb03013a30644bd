"""Ask like a person (docs/asking.md): route a question to its intent, run the handler that answers
it from the belief graph, and say which one ran and why.

One request builds one filter (retrieval's `Visibility`) at one instant: the tenant, current
beliefs, the sensitivity ceiling (the request's, capped by the agent's memory preferences) and,
for a negation, the excluded terms and the names of the entities they name, matched inside every
query. A negation runs the handler of the intent it wraps with that filter; plain search runs
retrieval's hybrid search."""
from __future__ import annotations

from graph.asking import about, feelings, followups, past
from graph.asking.answers import cite
from graph.asking.model import DEFAULT_SUMMARY_TOKENS, Answer, AskQuery, Cited, check_ask
from graph.asking.reads import Reads
from graph.asking.route import Route
from graph.asking.router import LlmRouter, Router, RuleRouter
from graph.context.tokens import TokenEstimator
from graph.core.timeutil import to_utc, utcnow
from graph.core.vocab import ACTIVE
from graph.entities.service import EntityService
from graph.language.classifier import Classifier
from graph.preferences import PreferenceService
from graph.retrieval import RetrievalService, SearchQuery, Visibility
from graph.store.gateway import GraphRunner


class AskService:
    def __init__(self, runner: GraphRunner, retrieval: RetrievalService, entities: EntityService,
                 preferences: PreferenceService, estimate: TokenEstimator, llm: LlmRouter | None = None,
                 classifier: Classifier | None = None) -> None:
        self.runner, self.retrieval, self.entities = runner, retrieval, entities
        self.preferences, self.estimate = preferences, estimate
        # The classifier reads the question embedded by search's own model (None: the rules alone).
        self.rules: Router = RuleRouter(classifier, retrieval.embed)
        self.llm = llm  # None unless CREDENCE_LLM_ASK is on
        if llm is not None:
            llm.fallback = self.rules

    def router_for(self, name: str | None) -> Router:
        if name == "llm" or (name is None and self.llm is not None):
            return self.llm or self.rules
        return self.rules

    async def ask(self, query: AskQuery) -> Answer:
        check_ask(query)
        router = self.router_for(query.router)
        route = await router.route(query.question)
        notes = []
        if query.router == "llm" and self.llm is None:
            notes.append("router: no LLM router is configured (CREDENCE_LLM_ASK); the rules routed it")
        if query.intent is not None and query.intent != route.intent:
            notes.append(f"intent: {query.intent} was asked for; the router read {route.intent}")
            route = Route(query.intent, tuple(i for i in (route.intent, *route.also) if i != query.intent),
                          route.slots, route.reasons, route.router)
        prefs = await self.preferences.get(query.agent)
        # The search inside a handler caps the ceiling too; the graph reads take it from here.
        probe = await self.retrieval.honour_preferences(SearchQuery(
            agent=query.agent, text=query.question, sensitivity_ceiling=query.sensitivity_ceiling))
        now = to_utc(query.as_of) if query.as_of else utcnow()
        excluded = await self._excluded(query.agent, route)
        shown = Visibility(agent=query.agent, statuses=(ACTIVE,), as_of=now,
                           sensitivity_ceiling=probe.sensitivity_ceiling, exclude=excluded)
        reads = Reads(self.runner, self.retrieval, self.entities, shown, time_travel=query.as_of is not None)
        handler = route.also[0] if route.intent == "negation" and route.also else route.intent
        if route.intent == "negation" and not route.also:
            handler = "search"
        answer = await self._run(handler, reads, route, query, prefs.context_max_tokens)
        why = [f"router: {route.router}; intent {route.intent}" + (f", also {', '.join(route.also)}"
                                                                    if route.also else ""), *route.reasons, *notes]
        if route.intent == "negation":
            why.append(f"negation: the {handler} handler ran with {', '.join(map(repr, excluded))} filtered out "
                       "inside every query")
        if probe.sensitivity_ceiling != query.sensitivity_ceiling:
            why.append(f"sensitivity: capped at {probe.sensitivity_ceiling!r} by the agent's memory preferences")
        return Answer(**{**answer.__dict__, "explain": (*why, *answer.explain), "excluded": excluded})

    async def _excluded(self, agent: str, route: Route) -> tuple[str, ...]:
        """The terms a negation excludes, with the names of the entities they name (an alias of one
        excludes the others)."""
        if route.intent != "negation":
            return ()
        terms: list[str] = []
        for term in route.slots.exclude:
            terms.append(term)
            found = await self.entities.list(agent, name=" ".join(term.split())[:200], limit=1)
            if found:
                terms += [found[0].name, *found[0].aliases]
        return tuple(dict.fromkeys(t for t in terms if t.strip()))[:20]

    async def _run(self, handler: str, reads: Reads, route: Route, query: AskQuery,
                   default_budget: int | None) -> Answer:
        limit = query.limit
        if handler == "about_me":
            budget = query.max_tokens or default_budget or DEFAULT_SUMMARY_TOKENS
            return await about.about_me(reads, route, budget, self.estimate)
        if handler == "entity":
            return await about.entity(reads, route, limit)
        if handler == "relationship":
            return await about.relationship(reads, route, query.question, limit)
        if handler == "temporal":
            return await past.temporal(reads, route, limit)
        if handler == "historical":
            return await past.historical(reads, route, query.question, limit)
        if handler == "sentiment":
            return await feelings.sentiment(reads, route, query.question, limit)
        if handler == "decision":
            return await followups.decision(reads, route, limit)
        if handler == "goal":
            return await followups.goal(reads, route, query.question, limit)
        return await self._search(reads, route, query)

    async def _search(self, reads: Reads, route: Route, query: AskQuery) -> Answer:
        # A negation searches for what it wraps ("restaurants I liked"), never for what it excludes.
        text = route.slots.topic if route.intent == "negation" and route.slots.topic else query.question
        hits = await reads.search(text, limit=query.limit)
        cited: dict[str, Cited] = {}
        for h in hits:
            cite(cited, h.memory, f"hybrid search for {text!r}: relevance {h.score:.2f}, composite {h.composite:.2f}")
        return Answer(route=route, handler="search", found=bool(hits),
                      summary="\n".join(f"- {' '.join(h.memory.text.split())}" for h in hits[:5]) or "Nothing matches.",
                      memories=tuple(cited.values()),
                      explain=(f"search: retrieval's hybrid search for {text!r} ({len(hits)} results)",))
