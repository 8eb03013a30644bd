"""Who wins when two beliefs conflict: the precedence rules of docs/beliefs.md, deterministic, no LLM.

The scope and validity gates are applied in Cypher (only genuinely conflicting beliefs reach
here). Then, against each active conflicting belief:
  1. a user_explicit correction supersedes any non-user source;
  2. higher trust wins;
  3. at equal trust, the newer STATE wins the present: the one whose valid time starts later
     (`valid_start`: the claim's valid_from, else the memory's event_at). An undated claim starts,
     for this comparison, when Credence recorded it. The older state is not a loser but history
     (`older_valid_time`): timeline.py closes its window where the newer one starts;
  4. two undated claims, or two states starting at the same instant, are one period said twice:
     the newer record wins (`equal_trust_newer`) and the older is superseded outright.
The predicate's conflict policy and the writer's on_conflict choice decide what losing means."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from graph.core.vocab import ACTIVE, QUARANTINED, USER_SOURCES

NEWER_VALID_TIME, OLDER_VALID_TIME = "newer_valid_time", "older_valid_time"


@dataclass(frozen=True)
class Contender:
    """One side of a conflict: a belief with its source, trust now, when it was recorded
    (`asserted_at`, record time), and when the state it describes starts and ends (valid time)."""
    memory_id: str
    source: str
    trust: float
    asserted_at: datetime
    valid_start: datetime | None = None  # claim valid_from, else event_at; None: undated
    valid_until: datetime | None = None  # exclusive

    @property
    def start(self) -> datetime:
        """Where the state starts for precedence: an undated claim is taken as of its recording."""
        return self.valid_start or self.asserted_at


@dataclass(frozen=True)
class Clash:
    existing: Contender
    new_wins: bool
    rule: str  # user_correction | higher_trust | newer_valid_time | older_valid_time | equal_trust_newer | ...

    @property
    def history(self) -> bool:
        """The new belief describes an older state than this rival: it becomes history, not a loser."""
        return self.rule == OLDER_VALID_TIME


@dataclass(frozen=True)
class Verdict:
    status: str                      # the new memory's status: active | quarantined
    supersede: tuple[Contender, ...]  # existing beliefs the new one replaces
    clashes: tuple[Clash, ...]       # every conflict, for CONTRADICTS edges and Conflict nodes
    conflict_status: str             # pending (needs review) | resolved
    resolution: str | None           # supersede | keep_both | None while pending
    quarantine_reason: str | None
    history: bool = False            # accepted, but as an older state than an active rival (timeline.py)


def wins(new: Contender, existing: Contender) -> tuple[bool, str]:
    if new.source == "user_explicit" and existing.source not in USER_SOURCES:
        return True, "user_correction"
    if not math.isclose(new.trust, existing.trust, abs_tol=1e-9):
        return (True, "higher_trust") if new.trust > existing.trust else (False, "trust_insufficient")
    dated = new.valid_start is not None or existing.valid_start is not None
    if dated and new.start != existing.start:
        return (True, NEWER_VALID_TIME) if new.start > existing.start else (False, OLDER_VALID_TIME)
    if new.asserted_at >= existing.asserted_at:
        return True, "equal_trust_newer"
    return False, "equal_trust_older"


def clashes_of(new: Contender, conflicting: list[Contender]) -> tuple[Clash, ...]:
    """The new belief against each conflicting one, with who wins by which rule."""
    return tuple(Clash(e, *wins(new, e)) for e in conflicting)


def decide(new: Contender, conflicting: list[Contender], *, policy: str, on_conflict: str) -> Verdict:
    """`policy`: supersede | require_review | keep_both. `on_conflict`: quarantine | keep_active."""
    clashes = clashes_of(new, conflicting)
    if not clashes:
        return Verdict(ACTIVE, (), (), "resolved", None, None)
    if policy == "keep_both":
        return Verdict(ACTIVE, (), clashes, "resolved", "keep_both", None)
    if policy == "supersede" and all(c.new_wins or c.history for c in clashes):
        # It beats every rival, or is an older state than some: either way nothing waits for a person.
        return Verdict(ACTIVE, tuple(c.existing for c in clashes if c.new_wins), clashes, "resolved", "supersede",
                       None, history=any(c.history for c in clashes))
    reason = "predicate_requires_review" if policy == "require_review" else "trust_insufficient"
    if on_conflict == "keep_active":
        # The writer accepts the contradiction: both stay visible, the conflict waits for review.
        return Verdict(ACTIVE, (), clashes, "pending", None, None)
    return Verdict(QUARANTINED, (), clashes, "pending", None, reason)
