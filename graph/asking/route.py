"""What the router makes of a question: the intent to answer, the other intents it carries, the
slots a handler needs, and the reasons, for `explain`. Pure records."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Slots:
    subject: str | None = None  # "user", "entity" or None (nobody: a document, a recipe)
    predicate: str | None = None  # the slot whose past value is asked (historical), canonical name
    entity: tuple[str, ...] = ()  # proper names, as written, in order
    topic: str | None = None  # the noun phrase asked about, as written
    exclude: tuple[str, ...] = ()  # things the question excludes, as written, without a leading article
    window: str | None = None  # the time phrase, as written, from its preposition


@dataclass(frozen=True)
class Route:
    intent: str  # one of graph.core.vocab.ASK_INTENTS
    also: tuple[str, ...] = ()  # the other intents it carries, in the order they appear
    slots: Slots = field(default_factory=Slots)
    reasons: tuple[str, ...] = ()  # why, one short line per rule that fired
    router: str = "rules"  # which router decided (graph.core.vocab.ASK_ROUTERS)
    unsure: bool = False  # no rule picked the intent: search by default, or the classifier's pick

    @property
    def wants_history(self) -> bool:
        """The question asks about how things were: historical is its intent or one it carries."""
        return self.intent == "historical" or "historical" in self.also
