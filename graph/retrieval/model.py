"""Search records: the query, its hits and the explain meta."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.core.errors import InvalidInput
from graph.core.timeutil import check_instant
from graph.core.values import check_unicode
from graph.core.vocab import DEFAULT_STATUSES
from graph.links.expansion import Expand, Related, check_expand
from graph.memories.model import Memory
from graph.retrieval.rerank import Signals, Weights


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
    as_of: datetime | None = None  # the instant validity windows are checked against; None: known_at, else now
    known_at: datetime | None = None  # record time: search what was believed at this instant
    created_after: datetime | None = None
    created_before: datetime | None = None
    event_after: datetime | None = None
    event_before: datetime | None = None
    mode: str = "hybrid"  # hybrid | vector | keyword: which retrievers supply candidates
    rerank: Weights | None = Weights()  # None: keep raw relevance order
    explain: bool = False
    track_access: bool = True  # context counts only what it includes, so it turns this off
    expand: Expand = Expand()  # recall with relationships: each hit's related memories (depth 0: none)


def check_query(query: SearchQuery) -> SearchQuery:
    """What the encoder, the tokenizer and the database cannot take is InvalidInput naming the
    field: text that is empty or not valid Unicode, times that overflow once converted to UTC."""
    if not isinstance(query.text, str) or not query.text.strip():
        raise InvalidInput("query", "must contain non-whitespace text")
    check_unicode(query.text, "query")
    if query.session_id is not None:
        check_unicode(query.session_id, "session_id")
    for i, tag in enumerate(query.tags):
        check_unicode(tag, f"tags[{i}]")
    check_instant(query.as_of, "as_of")
    check_instant(query.known_at, "known_at")
    for name in ("created_after", "event_after", "created_before", "event_before"):
        check_instant(getattr(query, name), name.split("_")[1])  # the API's names: after, before
    check_expand(query.expand)
    return query


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float  # relevance from retrieval, absolute, in [0, 1]: fusion.relevance of cosine, BM25 and coverage
    similarity: float | None  # cosine of query and memory embeddings, in [-1, 1]
    keyword_score: float | None  # coverage-weighted, normalised BM25 in [0, 1]; None: not a keyword match
    signals: Signals
    composite: float
    superseded_by: str | None = None
    keyword_hits: tuple[str, ...] | None = None  # explain only
    related: tuple[Related, ...] = ()  # with expand: the memories its edges reach, nearest first
    related_truncated: bool = False  # with expand: it reached more than expand.limit; the nearest are listed


@dataclass(frozen=True)
class SearchMeta:
    """Explain: how candidates became results (PRD v0.8.1 feature 8)."""
    options: dict[str, Any]
    counts: dict[str, int]
    excluded: dict[str, int]
    strategy: str  # "exact" or "index": how vector candidates were found
    keyword_terms: tuple[str, ...] = ()  # the content terms keyword search looked for
    keyword_weight: float = 1.0  # how much their evidence counted in hybrid ranking (fusion.keyword_weight)


@dataclass(frozen=True)
class SearchResult:
    hits: list[SearchHit]
    weights: Weights  # used for composite_score, even when rerank is off
    strategy: str = "index"  # vector candidates: "exact" or "index", for operators and tests
    meta: SearchMeta | None = None
    best_similarity: float = 0.0  # the best cosine among the candidates: what vector relevance is relative to
