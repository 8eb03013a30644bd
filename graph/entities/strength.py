"""A relationship's strength and validity from the memories that evidence it. Pure: no I/O.

strength = trust x corroboration x recency, each in [0, 1]:
- trust: the mean trust of the evidencing memories (quarantined ones do not count);
- corroboration = 1 - 0.5^mentions: one memory gives 0.5, two 0.75, three 0.875, ...;
- recency = 0.5^(days since the last mention / HALF_LIFE_DAYS), 1 for a mention at or after `at`.
Deterministic in its inputs, so the same graph and instant always rank the same way.
cypher/analyst/strongest_relationships.cypher computes the same formula in Cypher (a test holds
the two to each other)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from graph.core.vocab import QUARANTINED

HALF_LIFE_DAYS = 180.0
DAY_SECONDS = 86_400.0


@dataclass(frozen=True)
class Evidence:
    """One memory evidencing a relationship, with its validity window as the graph computed it
    (entities/relation.fragment: start = valid_from or created_at; end = valid_until, or when
    the memory was superseded or archived)."""
    memory_id: str
    status: str
    trust: float
    created_at: datetime
    start: datetime
    end: datetime | None


@dataclass(frozen=True)
class Standing:
    mentions: int
    trust: float
    strength: float
    first_seen: datetime | None
    last_seen: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    current: bool  # it holds at the instant asked about


def corroboration(mentions: int) -> float:
    return 1.0 - 0.5 ** max(mentions, 0)


def recency(last_seen: datetime, at: datetime) -> float:
    days = max((at - last_seen).total_seconds(), 0.0) / DAY_SECONDS
    return 0.5 ** (days / HALF_LIFE_DAYS)


def strength(mentions: int, trust: float, last_seen: datetime | None, at: datetime) -> float:
    if mentions <= 0 or last_seen is None:
        return 0.0
    return round(max(0.0, min(trust, 1.0)) * corroboration(mentions) * recency(last_seen, at), 6)


def holds(e: Evidence, at: datetime) -> bool:
    return e.start <= at and (e.end is None or at < e.end)


def standing(evidence: Sequence[Evidence], at: datetime) -> Standing:
    """The relationship as of `at`: its window spans its evidence's windows (a relationship that
    lapsed and came back spans the gap; docs/entities.md), and it is current when one holds at `at`."""
    counted = [e for e in evidence if e.status != QUARANTINED]
    if not counted:
        return Standing(0, 0.0, 0.0, None, None, None, None, False)
    trust = sum(e.trust for e in counted) / len(counted)
    last_seen = max(e.created_at for e in counted)
    ends = [e.end for e in counted if e.end is not None]
    return Standing(mentions=len(counted), trust=round(trust, 6), strength=strength(len(counted), trust, last_seen, at),
                    first_seen=min(e.created_at for e in counted), last_seen=last_seen,
                    valid_from=min(e.start for e in counted),
                    valid_until=max(ends) if len(ends) == len(counted) else None,  # open while any evidence is
                    current=any(holds(e, at) for e in counted))
