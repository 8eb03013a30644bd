"""The rules and the intent classifier together: the rules route every question they recognise (their
markers are precise, and they fill the slots); when no rule picks an intent, the classifier over the
question's embedding and its words (intents.py) may, if it is confident, instead of falling back to search; and
when the rules ask for a past value, a very sure classifier may overrule them. The slots are then
read by the rules for the intent picked. bench/routing_folds.py measures the blend on
held-out folds of the tuning half. Pure."""
from __future__ import annotations

from collections.abc import Mapping

from graph.asking.question import prepare
from graph.asking.route import Route
from graph.asking.rules import route as rule_route
from graph.asking.slots import names, window
from graph.language.classifier import NAME_STAND_IN, TIME_STAND_IN, masked

# The classifier's pick must be at least this probable (bench/routing_folds.py chose it).
MIN_PROBABILITY = 0.4
# The one rule the classifier may overrule, and how sure it must be. A past value is asked with the
# commonest words ("used to", a past tense beside a slot word), which also describe the thing a plain
# search asks for ("the recipe my grandmother used to make"): on held-out folds it was the least
# precise rule (86%, the others 94% to 100%), and where a classifier at least this sure read another
# intent, the classifier was right every time (bench/routing_folds.py; docs/asking.md).
OVERRULED = "historical"
OVERRULE_PROBABILITY = 0.8
# An exclusion is found by the rules or not at all: the classifier never picks negation.
_NEVER_PICKED = ("negation",)


# What the classifier reads is the question's phrasing, not its topic: proper names and the time
# window are replaced by stand-ins before it is embedded ("what do you remember about Lisbon" reads
# as "what do you remember about Sam"), which carried over to held-out folds far better than the
# question as asked (bench/routing_folds.py; docs/asking.md has the ablation).
def for_classifier(question: str) -> str:
    """The question as the classifier reads it."""
    q = prepare(question)
    found = window(q, [])
    spans = [(start, end, NAME_STAND_IN) for _, (start, end) in names(q, [found[1]] if found else [])]
    if found:
        spans.append((*found[1], TIME_STAND_IN))
    return masked(q.text, spans)


def pick(scores: Mapping[str, float]) -> tuple[str, float] | None:
    """The classifier's intent and probability, or None when it is not confident of a special one."""
    allowed = {k: v for k, v in scores.items() if k not in _NEVER_PICKED}
    if not allowed:
        return None
    best = max(allowed, key=lambda k: (allowed[k], k))
    if best == "search" or allowed[best] < MIN_PROBABILITY:
        return None
    return best, allowed[best]


def asks_classifier(ruled: Route) -> bool:
    """Whether the classifier is asked about a question the rules routed: no rule decided, or the one
    rule it may overrule did."""
    return ruled.unsure or ruled.intent == OVERRULED


def combine(question: str, ruled: Route, scores: Mapping[str, float] | None) -> Route:
    """The route of a question the rules routed (`ruled`), given the classifier's scores."""
    if not scores or not asks_classifier(ruled):
        return ruled
    if not ruled.unsure:
        return _overrule(question, ruled, scores)
    chosen = pick(scores)
    if chosen is None:
        top = max(scores, key=lambda k: (scores[k], k))
        return Route(ruled.intent, ruled.also, ruled.slots,
                     (*ruled.reasons, f"classifier: not confident of another intent ({top} at {scores[top]:.2f})"),
                     ruled.router, ruled.unsure)
    intent, p = chosen
    why = f"classifier: {intent} at {p:.2f}, from the question's embedding and words (no rule decided)"
    return rule_route(question, fallback=(intent, why))


def _overrule(question: str, ruled: Route, scores: Mapping[str, float]) -> Route:
    """The rules asked for a past value: it stands unless the classifier is very sure of another intent."""
    allowed = {k: v for k, v in scores.items() if k not in _NEVER_PICKED}
    best = max(allowed, key=lambda k: (allowed[k], k))
    if best == ruled.intent or allowed[best] < OVERRULE_PROBABILITY:
        return ruled
    why = f"classifier: {best} at {allowed[best]:.2f} overrules the past value, from the question's embedding and words"
    fallback = (best, why) if best != "search" else None
    return rule_route(question, fallback=fallback, vetoed=(ruled.intent, why))
