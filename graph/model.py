"""Domain records. API models live in api/schemas and are built from these in one place."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

MEMORY_TYPES = ("fact", "preference", "goal", "event", "decision", "procedure", "action", "other")
STATUSES = ("active", "superseded", "disputed", "quarantined", "archived")
DEFAULT_STATUSES = ("active",)
DEFAULT_IMPORTANCE = 0.5


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


@dataclass(frozen=True)
class MemoryPatch:
    """Only the fields present in `changes` change; `event_at` may be set to None to clear it."""
    changes: dict[str, Any]
    expected_version: int | None = None


@dataclass(frozen=True)
class Page:
    items: list[Memory]
    next_cursor: str | None


@dataclass(frozen=True)
class SearchQuery:
    agent: str
    text: str
    limit: int = 10
    min_score: float | None = None
    memory_types: tuple[str, ...] | None = None
    statuses: tuple[str, ...] = DEFAULT_STATUSES


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float  # cosine similarity of query and memory embeddings, in [-1, 1]


@dataclass(frozen=True)
class SearchResult:
    hits: list[SearchHit]
    strategy: str  # "exact" or "index": how candidates were found, for operators
