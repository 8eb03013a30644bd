"""Domain records. API models live in api/schemas and are built from these in one place."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.rerank import Signals, Weights
from graph.trust import DEFAULT_SOURCE

MEMORY_TYPES = ("fact", "preference", "goal", "event", "decision", "procedure", "action", "other")
STATUSES = ("active", "superseded", "disputed", "quarantined", "archived")
DEFAULT_STATUSES = ("active",)
DEFAULT_IMPORTANCE = 0.5


def visible_statuses(statuses=None, *, include_superseded: bool = False, include_disputed: bool = False,
                     include_quarantined: bool = False, include_all: bool = False) -> tuple[str, ...]:
    """Default visibility: active only. Flags add hidden statuses; include_all opens every one."""
    if include_all:
        return STATUSES
    chosen = list(statuses or DEFAULT_STATUSES)
    for flag, status in ((include_superseded, "superseded"), (include_disputed, "disputed"),
                         (include_quarantined, "quarantined")):
        if flag:
            chosen.append(status)
    return tuple(dict.fromkeys(chosen))


SCOPES = ("global", "session", "temporal")
ON_CONFLICT = ("quarantine", "keep_active")


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


@dataclass(frozen=True)
class StoreResult:
    memory: Memory
    deduplicated: bool = False
    superseded: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()        # ids of the Conflict nodes this write recorded
    pending_conflict_id: str | None = None  # the first conflict awaiting review, if any


@dataclass(frozen=True)
class MemoryPatch:
    """Only the fields present in `changes` change; `event_at` may be set to None to clear it."""
    changes: dict[str, Any]
    expected_version: int | None = None


@dataclass(frozen=True)
class Page:
    items: list[Memory]
    next_cursor: str | None


SEARCH_MODES = ("hybrid", "vector", "keyword")


@dataclass(frozen=True)
class SearchQuery:
    agent: str
    text: str
    limit: int = 10
    min_similarity: float | None = None  # lowest match, max(cosine, keyword score), returned
    memory_types: tuple[str, ...] | None = None
    tags: tuple[str, ...] = ()  # a memory must carry every one
    statuses: tuple[str, ...] = DEFAULT_STATUSES
    session_id: str | None = None  # that session's claims show, and override global ones
    as_of: datetime | None = None  # the instant validity windows are checked against; None: now
    created_after: datetime | None = None
    created_before: datetime | None = None
    event_after: datetime | None = None
    event_before: datetime | None = None
    mode: str = "hybrid"  # hybrid | vector | keyword: which retrievers supply candidates
    rerank: Weights | None = Weights()  # None: keep raw relevance order
    explain: bool = False
    track_access: bool = True  # context counts only what it includes, so it turns this off


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float  # relevance from retrieval: normalised max of the two retrievers, in [0, 1]
    similarity: float | None  # cosine of query and memory embeddings, in [-1, 1]
    keyword_score: float | None  # coverage-weighted, normalised BM25 in [0, 1]; None: not a keyword match
    signals: Signals
    composite: float
    superseded_by: str | None = None
    keyword_hits: tuple[str, ...] | None = None  # explain only


@dataclass(frozen=True)
class SearchMeta:
    """Explain: how candidates became results (PRD v0.8.1 feature 8)."""
    options: dict[str, Any]
    counts: dict[str, int]
    excluded: dict[str, int]
    strategy: str  # "exact" or "index": how vector candidates were found


@dataclass(frozen=True)
class SearchResult:
    hits: list[SearchHit]
    weights: Weights  # used for composite_score, even when rerank is off
    strategy: str = "index"  # vector candidates: "exact" or "index", for operators and tests
    meta: SearchMeta | None = None
    best_similarity: float = 0.0  # the best cosine among the candidates: what vector relevance is relative to
