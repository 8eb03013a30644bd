"""One memory's score for one query: its evidence fused into a calibrated relevance (fusion.py),
then weighed with its confidence, recency and importance (rerank.py). Pure.

The one place a memory is scored for a query: search scores its candidates here, and context the
memories link expansion brought into its pool, so both stand on the same absolute scale."""
from __future__ import annotations

from datetime import datetime
from typing import NamedTuple, Protocol

from graph.core.errors import InvalidInput
from graph.core.vocab import SEARCH_MODES
from graph.retrieval.fusion import fuse
from graph.retrieval.rerank import Signals, Weights, composite, signals


class Rankable(Protocol):
    """What the rerank weighs besides relevance: a candidate (candidates.Found) or a Memory has it."""
    @property
    def confidence(self) -> float: ...
    @property
    def importance(self) -> float: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def event_at(self) -> datetime | None: ...


class Evidence(NamedTuple):
    """What the retrievers know of how well a memory matches the query. (Named tuples here: a
    search makes one of each per candidate, and they cost a third of a frozen dataclass.)"""
    similarity: float | None  # its cosine to the query; None when only full-text search found it
    floor: float = 0.0  # the cosine that stands in for a missing one (fusion.cosine_floor)
    bm25: float | None = None  # its full-text score; None when full-text search did not find it
    coverage: float = 0.0  # the share of the query's terms it holds
    keyword: float | None = None  # its keyword score (fusion.keyword_score); None: not a keyword match
    terms: int = 0  # the query's content terms, which set how much keyword evidence counts


class Scored(NamedTuple):
    relevance: float  # calibrated, in (0, 1): the hit's `score`
    match: float  # what min_similarity compares: max(cosine clamped to [0, 1], keyword score)
    signals: Signals
    composite: float  # the four-signal rerank score with the given weights


def score(mode: str, evidence: Evidence, memory: Rankable, weights: Weights, now: datetime,
          at_least: float = 0.0) -> Scored:
    """`mode` is the search's. A memory without keyword evidence in keyword mode (one that link
    expansion reached, not a retriever) gives the keyword fit nothing to weigh: its relevance is
    the vector fit's of its cosine, so it stays on the search's absolute scale. `at_least`: a
    relevance it ranks with when its own is lower (a conversation turn beside a hit, neighbours.py)."""
    if mode not in SEARCH_MODES:
        raise InvalidInput("mode", f"must be one of {', '.join(SEARCH_MODES)}")
    fit = "vector" if mode == "keyword" and evidence.bm25 is None else mode
    fused = fuse(fit, evidence.similarity, evidence.floor, evidence.bm25, evidence.coverage, evidence.keyword,
                 evidence.terms)
    relevance = max(fused.relevance, at_least)
    s = signals(relevance, memory.confidence, memory.updated_at, memory.importance, now, memory.event_at)
    return Scored(relevance=relevance, match=fused.match, signals=s, composite=composite(s, weights))
