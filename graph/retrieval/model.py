"""Search records: the query, its hits and the explain meta."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.core.errors import InvalidInput
from graph.core.timeutil import check_instant
from graph.core.values import check_unicode
from graph.core.vocab import (
    DEFAULT_SENSITIVITY_CEILING,
    DEFAULT_STATUSES,
    MEMORY_TYPES,
    SEARCH_MODES,
    SENSITIVITIES,
    STATUSES,
)
from graph.links.expansion import Expand, Related, check_expand
from graph.memories.model import Memory
from graph.memories.rules import MAX_TAG_CHARS, check_agent
from graph.retrieval.exclusion import MAX_EXCLUDED, MAX_EXCLUDED_CHARS
from graph.retrieval.rerank import Signals, Weights
from graph.retrieval.visibility import Visibility

# The bounds of a search, here and in the API's request models (api/schemas/search.py).
MAX_LIMIT = 100  # results per search
MAX_QUERY_CHARS = 4_000  # the search text
MAX_FILTER_TAGS = 20  # tags a search may require
MAX_SESSION_CHARS = 200
MAX_SEARCHES = 20  # searches in one search_many
MAX_AGENTS = 50  # tenants in one administrator's search


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
    sensitivity_ceiling: str = DEFAULT_SENSITIVITY_CEILING  # normal | sensitive | private: the most sensitive shown
    exclude: tuple[str, ...] = ()  # terms whose memories are left out, inside the query ("but not Italian")


def check_query(query: SearchQuery) -> SearchQuery:
    """The domain's rules for a search, whoever calls (the API checks the same first, with its own
    messages): what the encoder, the tokenizer, the fusion and the database cannot take is
    InvalidInput naming the field, as the API names it: text that is empty, too long or not valid
    Unicode, an unknown mode, status or memory type, a limit or min_similarity out of range, times
    that overflow once converted to UTC or a window that ends before it starts."""
    if not isinstance(query, SearchQuery):
        raise InvalidInput("query", "must be a SearchQuery")
    check_agent(query.agent, "agent")
    if not isinstance(query.text, str) or not query.text.strip():
        raise InvalidInput("query", "must contain non-whitespace text")
    if len(query.text) > MAX_QUERY_CHARS:
        raise InvalidInput("query", f"is {len(query.text)} characters; the limit is {MAX_QUERY_CHARS}")
    check_unicode(query.text, "query")
    if not isinstance(query.mode, str) or query.mode not in SEARCH_MODES:
        raise InvalidInput("mode", f"must be one of {', '.join(SEARCH_MODES)}")
    if not _integer(query.limit) or not 1 <= query.limit <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be an integer from 1 to {MAX_LIMIT}")
    if query.min_similarity is not None and not (_number(query.min_similarity) and 0 <= query.min_similarity <= 1):
        raise InvalidInput("min_similarity", "must be a number from 0 to 1, or None")
    _check_names(query.statuses, "statuses", STATUSES)
    if query.memory_types is not None:
        _check_names(query.memory_types, "memory_types", MEMORY_TYPES)
    _check_tags(query.tags)
    _check_exclude(query.exclude)
    if not isinstance(query.sensitivity_ceiling, str) or query.sensitivity_ceiling not in SENSITIVITIES:
        raise InvalidInput("sensitivity_ceiling", f"must be one of {', '.join(SENSITIVITIES)}")
    if query.session_id is not None:
        if not isinstance(query.session_id, str) or len(query.session_id) > MAX_SESSION_CHARS:
            raise InvalidInput("session_id", f"must be a string of at most {MAX_SESSION_CHARS} characters, or None")
        check_unicode(query.session_id, "session_id")
    check_instant(query.as_of, "as_of")
    check_instant(query.known_at, "known_at")
    for after, before in (("created_after", "created_before"), ("event_after", "event_before")):
        start = check_instant(getattr(query, after), "after")  # the API's names: after, before
        end = check_instant(getattr(query, before), "before")
        if start is not None and end is not None and start >= end:
            raise InvalidInput("after", "must be earlier than before")
    if query.rerank is not None and not isinstance(query.rerank, Weights):
        raise InvalidInput("rerank", "must be rerank Weights, or None for raw relevance order")
    for flag in ("explain", "track_access"):
        if not isinstance(getattr(query, flag), bool):
            raise InvalidInput(flag, "must be true or false")
    if not isinstance(query.expand, Expand):
        raise InvalidInput("expand", "must be an Expand")
    check_expand(query.expand)
    return query


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_names(values: Any, field: str, vocabulary: tuple[str, ...]) -> None:
    if isinstance(values, (str, bytes)) or not isinstance(values, (tuple, list)) or not values:
        raise InvalidInput(field, "must name at least one")
    for i, value in enumerate(values):
        if not isinstance(value, str) or value not in vocabulary:
            raise InvalidInput(f"{field}[{i}]", f"must be one of {', '.join(vocabulary)}")


def _check_exclude(terms: Any) -> None:
    if isinstance(terms, (str, bytes)) or not isinstance(terms, (tuple, list)):
        raise InvalidInput("exclude", "must be a list of strings")
    if len(terms) > MAX_EXCLUDED:
        raise InvalidInput("exclude", f"holds {len(terms)} terms; the limit is {MAX_EXCLUDED}")
    for i, term in enumerate(terms):
        if not isinstance(term, str) or not term.strip() or len(term) > MAX_EXCLUDED_CHARS:
            raise InvalidInput(f"exclude[{i}]", f"must hold 1 to {MAX_EXCLUDED_CHARS} characters")
        check_unicode(term, f"exclude[{i}]")


def _check_tags(tags: Any) -> None:
    if isinstance(tags, (str, bytes)) or not isinstance(tags, (tuple, list)):
        raise InvalidInput("tags", "must be a list of strings")
    if len(tags) > MAX_FILTER_TAGS:
        raise InvalidInput("tags", f"holds {len(tags)} tags; the limit is {MAX_FILTER_TAGS}")
    for i, tag in enumerate(tags):
        if not isinstance(tag, str) or not tag.strip() or len(tag) > MAX_TAG_CHARS:
            raise InvalidInput(f"tags[{i}]", f"must hold 1 to {MAX_TAG_CHARS} characters")
        check_unicode(tag, f"tags[{i}]")


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
    neighbour_of: str | None = None  # a conversation turn ranked by the hit beside it in its thread (neighbours.py)


@dataclass(frozen=True)
class SearchMeta:
    """Explain: how candidates became results (docs/retrieval.md, Explain)."""
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
    visibility: Visibility  # the filter it ran with: what later reads for the same request pass
    strategy: str = "index"  # vector candidates: "exact" or "index", for operators and tests
    meta: SearchMeta | None = None
    best_similarity: float = 0.0  # the best cosine among the candidates: what vector relevance is relative to


@dataclass(frozen=True)
class Hydrated:
    """A memory loaded for a query (RetrievalService.hydrate): with its claim, its cosine to the
    query and who superseded it."""
    memory: Memory
    similarity: float | None  # cosine of query and memory, calibrated; None without an embedding
    superseded_by: str | None
