"""Memory records. API models live in api/schemas and are built from these in one place."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.core.vocab import DEFAULT_SECRET_MODE, DEFAULT_SENSITIVITY, DEFAULT_SOURCE

DEFAULT_IMPORTANCE = 0.5


@dataclass(frozen=True)
class Claim:
    """What a memory asserts: subject, predicate, value, with scope and a validity window."""
    subject: str
    predicate: str
    value: str
    exclusive: bool = True
    scope: str = "global"
    session_id: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    normalized_value: str | None = None  # filled by the write path from the predicate's normaliser


@dataclass(frozen=True)
class Provenance:
    source: str = DEFAULT_SOURCE
    ref: str | None = None  # document id, tool call id, ...


@dataclass(frozen=True)
class Quarantine:
    reason: str  # trust_insufficient | predicate_requires_review | suspicious_input | manual
    details: str | None
    created_at: datetime
    resolution: str | None = None  # activated | rejected, once reviewed
    resolved_at: datetime | None = None


@dataclass(frozen=True)
class NewMemory:
    agent: str
    text: str
    memory_type: str = "fact"
    category: str | None = None
    importance: float = DEFAULT_IMPORTANCE
    tags: tuple[str, ...] = ()
    event_at: datetime | None = None
    metadata: dict[str, Any] | None = None
    claim: Claim | None = None
    provenance: Provenance = Provenance()
    suspicious: str | None = None  # set: store quarantined as suspicious_input, with these details
    on_conflict: str = "quarantine"
    secrets: str = DEFAULT_SECRET_MODE  # refuse | redact: what a secret in this memory does (secrets.py)
    sensitivity: str = DEFAULT_SENSITIVITY  # normal | sensitive | private: requests see up to a ceiling
    effective_from: datetime | None = None  # out of retrieval until then ("starting next month")
    expires_at: datetime | None = None  # out of retrieval from then on ("until Friday")
    recurrence: str | None = None  # an RFC 5545 RRULE ("every Monday": FREQ=WEEKLY;BYDAY=MO)
    historical: bool = False  # says how things were ("I used to ..."), not how they are
    thread: str | None = None  # the conversation it was said in (a session or chat id): threads.py
    # Active memories this one succeeds whatever their slot (an ingestion decision: a claimless
    # change, a relationship that became another); the belief engine weighs each as a rival.
    supersedes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Memory:
    id: str
    agent: str
    text: str
    memory_type: str
    category: str | None
    importance: float
    tags: tuple[str, ...]
    status: str
    version: int
    created_at: datetime
    updated_at: datetime
    event_at: datetime | None
    metadata: dict[str, Any] | None
    source_type: str = DEFAULT_SOURCE
    corroboration: int = 1
    reinforcements: int = 0
    disputes: int = 0
    trust: float = 0.5
    confidence: float = 0.5
    quarantine: Quarantine | None = None
    claim: Claim | None = None  # loaded by single-memory reads, not by lists or searches
    valid_from: datetime | None = None  # the claim's validity window, when it has one
    valid_until: datetime | None = None
    access_count: int = 0  # times retrieval returned it; never moves updated_at
    last_accessed_at: datetime | None = None
    superseded_at: datetime | None = None  # record time: when it left the present, if it did
    sensitivity: str = DEFAULT_SENSITIVITY
    effective_from: datetime | None = None
    expires_at: datetime | None = None
    recurrence: str | None = None
    historical: bool = False
    sentiment: float | None = None  # VADER compound score of the text at write time, -1..1 (sentiment.py)
    thread: str | None = None  # its conversation thread (threads.py), and its place in it: 0, 1, ...
    turn: int | None = None


@dataclass(frozen=True)
class SecretSpan:
    """A secret found in what was sent: the field, its kind and its character span [start, end) in
    that field's value as sent. Never its value."""
    field: str
    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class StoreResult:
    memory: Memory
    deduplicated: bool = False
    superseded: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()        # ids of the Conflict nodes this write recorded
    pending_conflict_id: str | None = None  # the first conflict awaiting review, if any
    redacted: tuple[SecretSpan, ...] = ()  # secrets replaced by [REDACTED:<kind>] (secrets="redact")


@dataclass(frozen=True)
class MemoryPatch:
    """Only the fields present in `changes` change; `event_at` may be set to None to clear it."""
    changes: dict[str, Any]
    expected_version: int | None = None
    secrets: str = DEFAULT_SECRET_MODE  # refuse | redact, as on a new memory


@dataclass(frozen=True)
class PatchResult:
    memory: Memory
    redacted: tuple[SecretSpan, ...] = ()


@dataclass(frozen=True)
class Page:
    items: list[Memory]
    next_cursor: str | None
