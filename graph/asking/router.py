"""The routers behind one interface: `await router.route(question) -> Route`.

`RuleRouter` is the default: the deterministic rules (rules.py), and, when no rule decides (or the
rules ask for a past value, blend.py), the small intent classifier over the question's embedding
(intents.py), no language model.
`LlmRouter` asks the OpenAI-compatible chat model the user configures (graph/llm; off by default)
for the same record, as a JSON object, and falls back to the rules router when the model is
unreachable, slow or answers something that is not a valid route; `explain` says which one decided."""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from graph.asking.blend import asks_classifier, combine, for_classifier
from graph.asking.route import Route, Slots
from graph.asking.rules import route as rule_route
from graph.core.vocab import ASK_INTENTS, ASK_SUBJECTS
from graph.language.classifier import Classifier
from graph.llm import ChatClient, LlmError

log = logging.getLogger(__name__)


class Router(Protocol):
    async def route(self, question: str) -> Route: ...


class RuleRouter:
    """The rules; with a classifier and a way to embed text, the classifier where no rule decides."""

    def __init__(self, classifier: Classifier | None = None,
                 embed: Callable[[str], Awaitable[Sequence[float]]] | None = None) -> None:
        self.classifier = classifier if embed is not None else None
        self.embed = embed

    async def route(self, question: str) -> Route:
        ruled = rule_route(question)
        if not asks_classifier(ruled) or self.classifier is None or self.embed is None:
            return ruled
        text = for_classifier(question)
        return combine(question, ruled, self.classifier.scores(await self.embed(text), text))


PROMPT = """You route questions an assistant asks its long-term memory about a user. Answer with one
JSON object and nothing else:
{"intent": I, "also": [I, ...], "slots": {"subject": "user"|"entity"|null, "predicate": P|null,
 "entity": [names as written], "topic": phrase|null, "exclude": [phrases], "window": phrase|null}}
I is one of: about_me (a summary of the user), entity (a summary of one named thing), relationship
(how people or things are linked), temporal (what happened in a period), historical (a past value
of something that has a current value), negation (the question excludes something: "but not",
"except", "other than"), sentiment (how someone feels about something), decision (a choice made or
pending), goal (goals and progress), search (anything else). An exclusion always makes it
negation, with the wrapped intent first in also. A time window alone does not make it temporal.
When a question asks two things, the primary is the earlier in: negation, decision, goal,
sentiment, historical, relationship, temporal, entity, about_me, search.
P is one of: lives_in, works_at, job_title, car, partner, school, phone, email, diet, hobby, pet,
manager, gym, doctor, hair, team, bank, name, favourite_food, address."""


def parse_route(data: Mapping[str, Any]) -> Route:
    """The model's JSON object as a Route, or ValueError when it is not one."""
    if data.get("intent") not in ASK_INTENTS:
        raise ValueError("no valid intent")
    also = tuple(i for i in data.get("also") or () if i in ASK_INTENTS and i != data["intent"])
    s: dict[str, Any] = data.get("slots") or {}
    entity = s.get("entity") or []
    entity = [entity] if isinstance(entity, str) else [e for e in entity if isinstance(e, str)]

    def text_or_none(value: Any) -> str | None:
        return value.strip() or None if isinstance(value, str) else None

    slots = Slots(subject=s.get("subject") if s.get("subject") in ASK_SUBJECTS else None,
                  predicate=text_or_none(s.get("predicate")), entity=tuple(entity), topic=text_or_none(s.get("topic")),
                  exclude=tuple(x for x in s.get("exclude") or () if isinstance(x, str) and x.strip()),
                  window=text_or_none(s.get("window")))
    return Route(intent=data["intent"], also=tuple(dict.fromkeys(also)), slots=slots,
                 reasons=(f"llm: the model routed it to {data['intent']}",), router="llm")


class LlmRouter:
    """The chat model routes; the fallback (the rules, by default) when it cannot."""

    def __init__(self, chat: ChatClient, fallback: Router | None = None) -> None:
        self.chat = chat
        self.fallback = fallback or RuleRouter()

    async def route(self, question: str) -> Route:
        try:
            return parse_route(await self.chat.json_object(PROMPT, question))
        except (LlmError, ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            why = exc.reason if isinstance(exc, LlmError) else f"not a route: {type(exc).__name__}"
            log.warning("the LLM router failed (%s); the rules route instead", why)
            fallen = await self.fallback.route(question)
            return Route(fallen.intent, fallen.also, fallen.slots,
                         (f"llm: unavailable ({why}); the rules routed it", *fallen.reasons), router="rules")
