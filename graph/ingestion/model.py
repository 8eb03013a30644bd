"""Ingestion records: messages in; candidates (what extraction derives), known memories (what the
decision weighs them against), decisions and the outcome of applying them out."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from graph.core.vocab import DEFAULT_SENSITIVITY, INGEST_MODES, INGEST_OPERATIONS

# What the decision does with a candidate, and how (graph/core/vocab.py holds the words).
OPERATIONS, MODES = INGEST_OPERATIONS, INGEST_MODES
ADD, UPDATE, DELETE, NOOP = INGEST_OPERATIONS
SUPERSEDE, REPLACE, APPEND, SOFT, HARD = INGEST_MODES

# What a candidate asks for: to be remembered, that what it names has ended (soft delete), or that
# what it names be forgotten (hard delete).
REMEMBER, END, FORGET = "remember", "end", "forget"
# The wording that tells a change from a repeat: over time, a correction, more of the same.
CUE_UPDATE, CUE_CORRECTION, CUE_APPEND = "update", "correction", "append"
# The rule of a candidate that has change wording and no kind: it updates a near known memory or is nothing.
CHANGE_ONLY = "change wording only"


@dataclass(frozen=True)
class Message:
    role: str  # user | assistant: the assistant's words are context, never memories
    text: str
    at: datetime  # when it was sent: relative dates resolve against it
    source: str | None = None  # the provenance source of what it yields; None: the request's
    ref: str | None = None  # a reference for provenance (a message id)


@dataclass(frozen=True)
class Draft:
    """A claim as extracted: subject, predicate, value, before the registry says how it behaves.
    `predicate` None: a value whose thing the message does not name ("I'm on Hoka Cliftons now"),
    resolved against known memories by the decision."""
    subject: str
    predicate: str | None
    value: str


@dataclass(frozen=True)
class Candidate:
    text: str  # what would be stored: the sentence it came from
    memory_type: str
    claim: Draft | None = None
    action: str = REMEMBER
    cue: str | None = None
    historical: bool = False
    sensitivity: str = DEFAULT_SENSITIVITY
    effective_from: date | None = None
    expires_at: date | None = None
    recurrence: str | None = None
    about: tuple[str, ...] = ()  # words naming what an END / FORGET / claimless change is about
    replaces: tuple[str, ...] = ()  # predicates of the subject this claim or change supersedes (partner -> spouse)
    previous: str | None = None  # the value a correction says was wrong ("35, not 36": 36)
    succeeds: str | None = None  # the value a change says this one took over from ("left Monzo for Starling")
    start: int = 0  # its span in the message
    end: int = 0
    rule: str = ""  # which rule found it, for the reason

    @property
    def key(self) -> tuple[str, str] | None:
        if self.claim is None or self.claim.predicate is None:
            return None
        return (self.claim.subject.lower(), self.claim.predicate)


@dataclass(frozen=True)
class Extraction:
    """What one message yields: candidates, and the secrets its text held (never their values)."""
    candidates: tuple[Candidate, ...]
    secrets: tuple[tuple[str, int, int], ...] = ()  # (kind, start, end) in the message text
    skipped: tuple[str, ...] = ()  # why sentences yielded nothing: question, hypothetical, secret, ...


@dataclass(frozen=True)
class Known:
    """A memory the decision weighs a candidate against: one the tenant holds (by claim slot, by
    entity or by embedding), or one an earlier message of the same request planned."""
    id: str
    text: str
    memory_type: str
    subject: str | None = None
    predicate: str | None = None
    value: str | None = None
    exclusive: bool = True  # its predicate is single-valued (the registry's word)
    historical: bool = False
    sensitivity: str = DEFAULT_SENSITIVITY
    recurrence: str | None = None
    similarity: float | None = None  # cosine to the candidate's text, when retrieval found it
    order: int = 0  # older first: the current one of a slot is the last non-historical
    valid_start: datetime | None = None  # its claim's valid_from, else its event_at
    planned: bool = False  # from an earlier message of this request, not stored yet


@dataclass(frozen=True)
class Decision:
    op: str
    mode: str | None
    candidate: Candidate
    target: Known | None = None
    reason: str = ""
    claim: Draft | None = None  # the claim as decided (a value-only draft gets its predicate)
    exclusive: bool = True
    targets: tuple[Known, ...] = field(default=())  # further memories a DELETE removes


@dataclass(frozen=True)
class Applied:
    """One operation as applied (or planned, in a dry run): the memory it touched and how it ended."""
    op: str
    mode: str | None
    reason: str
    memory_id: str | None  # the memory written, or the one touched (NOOP, DELETE)
    target_id: str | None  # the memory it updated or deleted
    claim: Draft | None
    memory_type: str
    text: str | None
    status: str | None = None  # the written memory's status: active, superseded (history), quarantined
    sensitivity: str = DEFAULT_SENSITIVITY
    historical: bool = False
    effective_from: date | None = None
    expires_at: date | None = None
    recurrence: str | None = None
    superseded: tuple[str, ...] = ()
    pending_conflict_id: str | None = None


@dataclass(frozen=True)
class MessageResult:
    index: int
    operations: tuple[Applied, ...]
    secrets: tuple[tuple[str, int, int], ...] = ()
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class IngestResult:
    messages: tuple[MessageResult, ...]
    dry_run: bool
    extractor: str
    decider: str
