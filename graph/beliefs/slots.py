"""A belief slot's state, as one statement reads it (beliefs/slots/open), and how each decision
changes it. Pure: the write path decides every claim of a batch against this state in order, so
claims in one batch see each other, and the engine writes the net change once (engine.py).

A slot is one (agent, subject, predicate). Its state holds the beliefs that can matter to a write:
the active ones (duplicates, rivals, the present of the timeline) and the history states that a
newer state superseded by valid time (the past of the timeline). Which of them is a duplicate, a
rival or a timeline state of a given claim is decided here, by the rules rivalry.py documents."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.beliefs.precedence import NEWER_VALID_TIME, Contender
from graph.beliefs.predicates import PredicateSchema, schema_from_map
from graph.beliefs.timeline import Closure, State
from graph.beliefs.trust import trust_now
from graph.core.timeutil import from_graph, from_graph_required
from graph.core.vocab import ACTIVE, DEFAULT_SOURCE, SUPERSEDED
from graph.memories.model import Claim


@dataclass
class Belief:
    """One stored belief of the slot, as the batch leaves it so far. `bumps`, `left_reason` and
    `successor` record what the batch changed, for the net write."""
    id: str
    status: str
    succeeded: bool  # a newer state SUPERSEDES it by valid time
    source_type: str
    corroboration: int
    reinforcements: int
    disputes: int
    created_at: datetime
    event_at: datetime | None
    normalized_value: str
    exclusive: bool
    scope: str
    session_id: str | None
    valid_from: datetime | None
    valid_until: datetime | None
    sources: set[str] = field(default_factory=set)
    bumps: int = 0  # version increments owed
    left_reason: str | None = None  # why it left the present in this batch
    closed: bool = False  # its window or status was set by a closure
    successor: dict[str, Any] | None = None  # the valid-time SUPERSEDES edge into it this batch made
    corroborated: bool = False
    added_sources: list[dict[str, str]] = field(default_factory=list)  # {key, type, ref} linked by this batch

    @classmethod
    def of(cls, row: dict[str, Any]) -> Belief:
        """From a beliefs/slots/open row, or a memory map (a map projection leaves out null properties)."""
        return cls(id=row["id"], status=row["status"], succeeded=bool(row.get("succeeded")),
                   source_type=row.get("source_type") or DEFAULT_SOURCE, corroboration=row.get("corroboration") or 1,
                   reinforcements=row.get("reinforcements") or 0, disputes=row.get("disputes") or 0,
                   created_at=from_graph_required(row["created_at"]), event_at=from_graph(row.get("event_at")),
                   normalized_value=row["normalized_value"], exclusive=bool(row["exclusive"]), scope=row["scope"],
                   session_id=row.get("session_id"), valid_from=from_graph(row.get("valid_from")),
                   valid_until=from_graph(row.get("valid_until")), sources=set(row.get("sources") or ()))

    def terms(self) -> dict[str, Any]:
        """What trust_now reads."""
        return {"source_type": self.source_type, "corroboration": self.corroboration,
                "reinforcements": self.reinforcements, "disputes": self.disputes, "created_at": self.created_at}

    def trust(self, now: datetime) -> float:
        return trust_now(self.terms(), now)

    def contender(self, now: datetime) -> Contender:
        """As a precedence contender: trust at this moment, valid time from the claim's valid_from,
        else the memory's event_at."""
        return Contender(self.id, self.source_type, self.trust(now), self.created_at, self.valid_from or self.event_at,
                         self.valid_until)


def _overlaps(b: Belief, claim: Claim) -> bool:
    # Windows are half-open [valid_from, valid_until): [a, b) and [b, c) touch and do not overlap.
    return ((b.valid_from is None or claim.valid_until is None or b.valid_from < claim.valid_until)
            and (b.valid_until is None or claim.valid_from is None or claim.valid_from < b.valid_until))


def _same_gate(b: Belief, claim: Claim) -> bool:
    """The scope gate: a session claim meets only claims of its own session; global and temporal
    claims meet each other, whatever session_id they carry."""
    return ((b.scope == "session") == (claim.scope == "session")
            and (claim.scope != "session" or b.session_id == claim.session_id))


@dataclass
class SlotState:
    key: str
    schema: PredicateSchema
    beliefs: list[Belief]  # oldest first (created_at)
    edges: list[dict[str, Any]] = field(default_factory=list)  # SUPERSEDES edges of other reasons, in order

    @classmethod
    def of(cls, row: dict[str, Any], predicate: str) -> SlotState:
        schema = schema_from_map(row["schema"]) if row["schema"] else PredicateSchema(predicate=predicate)
        return cls(row["key"], schema, [Belief.of(b) for b in row["beliefs"]])

    def duplicate(self, claim: Claim) -> Belief | None:
        """An active belief that already says the same thing: the same normalised value and scope
        (for a session claim, the same session), overlapping validity. Dedup corroborates it."""
        return next((b for b in self.beliefs if b.status == ACTIVE and b.normalized_value == claim.normalized_value
                     and b.scope == claim.scope and (claim.scope != "session" or b.session_id == claim.session_id)
                     and _overlaps(b, claim)), None)

    def rivals(self, claim: Claim, exclude: str | None = None) -> list[Belief]:
        """Active, exclusive beliefs with a different normalised value, through the scope gate,
        with overlapping validity (rivalry.py's rules 2-5; rule 1 is the caller's)."""
        return [b for b in self.beliefs if b.id != exclude and b.status == ACTIVE and b.exclusive
                and b.normalized_value != claim.normalized_value and _same_gate(b, claim) and _overlaps(b, claim)]

    def timeline(self, claim: Claim, now: datetime, exclude: str | None = None) -> list[State]:
        """The slot's valid-time states through the scope gate: exclusive beliefs that are active, or
        history a newer state superseded by valid time (a belief superseded by trust or correction
        was wrong, not past, and is no state of it)."""
        return [State(b.contender(now), b.status, b.succeeded) for b in self.beliefs
                if b.id != exclude and b.exclusive and _same_gate(b, claim)
                and (b.status == ACTIVE or (b.status == SUPERSEDED and b.succeeded))]

    def get(self, memory_id: str) -> Belief | None:
        return next((b for b in self.beliefs if b.id == memory_id), None)

    # -- what a decision does to the state (the engine writes the net of it) ----------------------
    def add(self, belief: Belief) -> None:
        self.beliefs.append(belief)

    def supersede(self, memory_id: str, reason: str, successor: dict[str, Any]) -> None:
        """Replaced outright by a belief that won (user correction, higher trust, the same period
        said again). An edge of reason newer_valid_time makes it a valid-time state's past."""
        b = self._belief(memory_id)
        b.status, b.bumps = SUPERSEDED, b.bumps + 1
        b.left_reason = b.left_reason or reason
        if reason == NEWER_VALID_TIME:
            b.succeeded, b.successor = True, successor
        else:
            self.edges.append({**successor, "old_id": memory_id, "reason": reason})

    def close(self, closure: Closure) -> None:
        """A window closed where its successor starts, or a status retired (timeline.py)."""
        b = self._belief(closure.memory_id)
        b.valid_until, b.status, b.closed, b.bumps = closure.valid_until, closure.status, True, b.bumps + 1
        if closure.status == SUPERSEDED:
            b.left_reason = b.left_reason or NEWER_VALID_TIME
        if closure.successor_id is not None:
            b.succeeded = True
            b.successor = {"new_id": closure.successor_id, "new_trust": closure.successor_trust,
                           "old_trust": closure.trust}

    def corroborate(self, memory_id: str, source: dict[str, str]) -> Belief:
        """Another source says the same: linked once, corroboration counts distinct sources."""
        b = self._belief(memory_id)
        if source["key"] not in b.sources:
            b.sources.add(source["key"])
            b.added_sources.append(source)
        b.corroboration, b.corroborated = max(len(b.sources), 1), True
        return b

    def _belief(self, memory_id: str) -> Belief:
        found = self.get(memory_id)
        assert found is not None, f"{memory_id} is no belief of slot {self.key!r}"
        return found
