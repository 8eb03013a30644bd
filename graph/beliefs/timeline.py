"""Valid time: where an accepted belief sits on its slot's timeline. Pure.

precedence.py decides, rival by rival, whether a belief replaces the present, is an older state
than it (history), or loses. This module turns an accepted verdict into windows and edges, so that
the states of one exclusive slot at equal trust form one timeline whatever order they arrived in:

- a rival the new belief beats by `newer_valid_time` is closed where the new state starts
  (`valid_until` = the new belief's valid start, exclusive); any other rival it beats (a user's
  correction, higher trust, the same period said again) is superseded outright, its window as it was;
- a history state (superseded earlier by a newer state) whose window reaches past the new state's
  start is closed there too, and the new state becomes its successor: a late state is spliced into
  the chain, not appended to it. A more trusted history state is left alone;
- a new belief that is an older state than some rival is closed where the next later state starts,
  and that state becomes its successor;
- only a dated state closes anything: an undated claim never says when it began.

A closed state is history (`superseded`) once its window has ended; closed at a start still in the
future, it stays active, the present until then. Each closed state has one SUPERSEDES edge
(reason `newer_valid_time`) from its successor, so the edges run in valid-time order. A state whose
successor's start has since passed is retired (made `superseded`) on the slot's next write that
reads the timeline (engine.settle: a dated write, or one that met a rival)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from graph.beliefs.precedence import NEWER_VALID_TIME, Contender, Verdict
from graph.core.vocab import ACTIVE, SUPERSEDED


@dataclass(frozen=True)
class State:
    """A state on the slot's timeline: an active belief, or history closed by a successor."""
    belief: Contender
    status: str
    succeeded: bool  # a newer state already SUPERSEDES it by valid time


@dataclass(frozen=True)
class Closure:
    """A window closed (or a status retired): `successor` SUPERSEDES it from now on."""
    memory_id: str
    valid_until: datetime | None
    status: str
    successor_id: str | None  # None: keep its edges (a retirement)
    successor_trust: float | None
    trust: float
    kind: str  # rival | history | own | retired


@dataclass(frozen=True)
class Succession:
    status: str                        # the new belief's status: active, or superseded (history)
    valid_until: datetime | None       # the new belief's window end, closed at its successor's start
    closures: tuple[Closure, ...]      # every window or status this write changes, its own included
    superseded: tuple[Contender, ...]  # rivals replaced outright: a SUPERSEDES edge, window unchanged

    def replaced(self) -> tuple[str, ...]:
        """The rivals this write took out of the present: superseded outright or closed and ended."""
        closed = (c.memory_id for c in self.closures if c.kind == "rival" and c.status == SUPERSEDED)
        return (*(c.memory_id for c in self.superseded), *closed)


def _ends_by(until: datetime | None, start: datetime) -> datetime:
    return start if until is None or until > start else until


def _status(until: datetime | None, now: datetime) -> str:
    return SUPERSEDED if until is not None and until <= now else ACTIVE


def place(new: Contender, verdict: Verdict, timeline: list[State], now: datetime) -> Succession:
    """`timeline`: the slot's states other than `new` (SlotState.timeline). `verdict`: an
    accepted one (status active, from decide)."""
    if verdict.status != ACTIVE or verdict.conflict_status != "resolved" or verdict.resolution == "keep_both":
        # Quarantined, kept active beside a pending conflict, or kept beside its rivals: no place taken.
        return Succession(verdict.status, new.valid_until, (), verdict.supersede)
    closures: list[Closure] = []
    superseded: list[Contender] = []
    handled = {c.existing.memory_id for c in verdict.clashes}
    dated = new.valid_start is not None
    for clash in verdict.clashes:
        if not clash.new_wins:
            continue
        old = clash.existing
        if clash.rule == NEWER_VALID_TIME and dated and new.start > old.start:
            ends = _ends_by(old.valid_until, new.start)
            closures.append(Closure(old.memory_id, ends, _status(ends, now), new.memory_id, new.trust, old.trust,
                                    "rival"))
        else:
            superseded.append(old)
    for state in timeline:
        old = state.belief
        if (dated and old.memory_id not in handled and state.status == SUPERSEDED and old.start < new.start
                and (old.valid_until is None or old.valid_until > new.start)
                and (old.trust < new.trust or math.isclose(old.trust, new.trust, abs_tol=1e-9))):
            closures.append(Closure(old.memory_id, new.start, SUPERSEDED, new.memory_id, new.trust, old.trust,
                                    "history"))
            handled.add(old.memory_id)
    status, until = ACTIVE, new.valid_until
    if verdict.history:
        states = [*(s.belief for s in timeline), *(c.existing for c in verdict.clashes if c.history)]
        later = [b for b in states if b.start > new.start and (new.valid_until is None or b.start < new.valid_until)]
        successor = min(later, key=lambda b: (b.start, b.asserted_at))
        if successor.valid_start is not None:
            until = _ends_by(until, successor.start)
            status = _status(until, now)
        else:
            status = SUPERSEDED  # an undated present: no end to give this state, but it is past
        closures.append(Closure(new.memory_id, until, status, successor.memory_id, successor.trust, new.trust, "own"))
    for state in timeline:
        old = state.belief
        if (state.status == ACTIVE and state.succeeded and old.memory_id not in handled
                and old.valid_until is not None and old.valid_until <= now):
            closures.append(Closure(old.memory_id, old.valid_until, SUPERSEDED, None, None, old.trust, "retired"))
    return Succession(status, until, tuple(closures), tuple(superseded))
