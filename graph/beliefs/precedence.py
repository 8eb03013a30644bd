"""Who wins when two beliefs conflict: the PRD's precedence rules, deterministic, no LLM.

The scope and validity gates are applied in Cypher (only genuinely conflicting beliefs reach
here). Then, against each active conflicting belief:
  1. a user_explicit correction supersedes any non-user source;
  2. higher trust wins;
  3. at equal trust, the newer claim wins.
The predicate's conflict policy and the writer's on_conflict choice decide what losing means."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

USER_SOURCES = ("user_explicit", "user_implicit")


@dataclass(frozen=True)
class Contender:
    """One side of a conflict: a belief with its source, trust now, and when it was asserted."""
    memory_id: str
    source: str
    trust: float
    asserted_at: datetime


@dataclass(frozen=True)
class Clash:
    existing: Contender
    new_wins: bool
    rule: str  # user_correction | higher_trust | equal_trust_newer | trust_insufficient | ...


@dataclass(frozen=True)
class Verdict:
    status: str                      # the new memory's status: active | quarantined
    supersede: tuple[Contender, ...]  # existing beliefs the new one replaces
    clashes: tuple[Clash, ...]       # every conflict, for CONTRADICTS edges and Conflict nodes
    conflict_status: str             # pending (needs review) | resolved
    resolution: str | None           # supersede | keep_both | None while pending
    quarantine_reason: str | None


def wins(new: Contender, existing: Contender) -> tuple[bool, str]:
    if new.source == "user_explicit" and existing.source not in USER_SOURCES:
        return True, "user_correction"
    if not math.isclose(new.trust, existing.trust, abs_tol=1e-9):
        return (True, "higher_trust") if new.trust > existing.trust else (False, "trust_insufficient")
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
        return Verdict("active", (), (), "resolved", None, None)
    if policy == "keep_both":
        return Verdict("active", (), clashes, "resolved", "keep_both", None)
    if policy == "supersede" and all(c.new_wins for c in clashes):
        return Verdict("active", tuple(c.existing for c in clashes), clashes, "resolved", "supersede", None)
    reason = "predicate_requires_review" if policy == "require_review" else "trust_insufficient"
    if on_conflict == "keep_active":
        # The writer accepts the contradiction: both stay visible, the conflict waits for review.
        return Verdict("active", (), clashes, "pending", None, None)
    return Verdict("quarantined", (), clashes, "pending", None, reason)
