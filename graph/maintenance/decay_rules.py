"""The decay formula (docs/maintenance.md, "Decay"). Pure: no I/O.

A memory's importance is what its writer said; it is never rewritten. What decays is the importance
it still has after going unused, computed when the decay job weighs it:

    idle       = days since the latest of created_at, updated_at and last_accessed_at
    half_life  = H * (1 + ln(1 + access_count)) * (1 + reinforcements)
    decayed    = importance * 0.5 ** (idle / half_life)

H is CREDENCE_DECAY_HALF_LIFE_DAYS. Every use resets `idle` (a search that returns it, a change,
a reinforcement, which also changes it); every use so far lengthens the half-life a little
(logarithmically), every reinforcement a lot (linearly). The weekly job archives a memory when
`decayed` is below the floor, it has been idle for at least the minimum, and its importance is
below the exemption (at or above it, a memory never decays)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

DAY_SECONDS = 86_400.0


@dataclass(frozen=True)
class DecayPolicy:
    half_life_days: float = 90.0
    floor: float = 0.1
    min_idle_days: float = 30.0
    exempt_importance: float = 0.9


@dataclass(frozen=True)
class Weighed:
    """A memory as the formula saw it."""
    idle_days: float
    half_life_days: float
    decayed: float
    archive: bool


def last_active(created_at: datetime, updated_at: datetime | None, last_accessed_at: datetime | None) -> datetime:
    return max(t for t in (created_at, updated_at, last_accessed_at) if t is not None)


def half_life(policy: DecayPolicy, access_count: int, reinforcements: int) -> float:
    return policy.half_life_days * (1 + math.log1p(max(access_count, 0))) * (1 + max(reinforcements, 0))


def weigh(policy: DecayPolicy, importance: float, since: datetime, now: datetime, access_count: int = 0,
          reinforcements: int = 0) -> Weighed:
    """The decayed importance of a memory last active at `since`, and whether the job archives it."""
    idle = max((now - since).total_seconds() / DAY_SECONDS, 0.0)
    life = half_life(policy, access_count, reinforcements)
    decayed = importance * 0.5 ** (idle / life)
    archive = importance < policy.exempt_importance and idle >= policy.min_idle_days and decayed < policy.floor
    return Weighed(idle, life, decayed, archive)
