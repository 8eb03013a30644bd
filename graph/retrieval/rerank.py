"""The four-signal rerank (docs/retrieval.md): relevance 0.40, confidence 0.25, recency 0.20 as
exp(-0.01 x days), importance 0.15. Pure.

The three signals that say nothing about the query count in full only for a memory at least as
likely as not to answer it (relevance >= RELEVANCE_GATE, where the calibrated relevance puts even
odds); below that they count in proportion to its relevance. Otherwise a fresh, trusted or
important memory that is off topic outranks the answer on those signals alone.

Recency counts the days since the time the memory refers to: its `event_at` when it has one (a
move two years ago, stored today, is not fresh news), else since it was last written. An
event still to come is current (recency 1)."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from datetime import datetime

from graph.core.errors import InvalidInput


@dataclass(frozen=True)
class Weights:
    relevance: float = 0.40
    confidence: float = 0.25
    recency: float = 0.20
    importance: float = 0.15

    def __post_init__(self) -> None:
        values = asdict(self)
        for name, value in values.items():
            if not math.isfinite(value) or value < 0:
                raise InvalidInput(f"rerank.{name}", "must be a finite number of at least 0")
        if sum(values.values()) == 0:
            raise InvalidInput("rerank", "at least one weight must be above 0")

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True)
class Signals:
    relevance: float
    confidence: float
    recency: float
    importance: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def recency(updated_at: datetime, now: datetime) -> float:
    days = max(0.0, (now - updated_at).total_seconds() / 86_400)
    return math.exp(-0.01 * days)


def refers_to(updated_at: datetime, event_at: datetime | None) -> datetime:
    """What recency counts from: the memory's event time when it has one, else its last write."""
    return event_at if event_at is not None else updated_at


def signals(relevance: float, confidence: float, updated_at: datetime, importance: float, now: datetime,
            event_at: datetime | None = None) -> Signals:
    return Signals(relevance=min(1.0, max(0.0, relevance)), confidence=confidence,
                   recency=recency(refers_to(updated_at, event_at), now), importance=importance)


RELEVANCE_GATE = 0.5


def gate(relevance: float, w: Weights) -> float:
    """How much of confidence, recency and importance a memory may add: all of it at even odds of
    answering or better, a share below. A caller who weighs relevance 0 asked to rank without it."""
    return min(1.0, relevance / RELEVANCE_GATE) if w.relevance > 0 else 1.0


def composite(s: Signals, w: Weights) -> float:
    rest = s.confidence * w.confidence + s.recency * w.recency + s.importance * w.importance
    return s.relevance * w.relevance + gate(s.relevance, w) * rest
