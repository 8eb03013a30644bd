"""Merging vector and full-text candidates: normalised max, with keyword scores weighted by term
coverage. Pure.

Each retriever's scores are divided by the best score among this query's candidates, so both
lie in [0, 1] with the query's best match at 1.0, and a memory's relevance is the larger of its
two. Without that, raw cosines (0.3-0.7 for a good match with MiniLM) sit on a compressed scale
that the rerank's confidence and importance drown, and a normalised BM25 hit beats every
semantic match (docs/benchmarks.md measures both).

Normalised max rather than reciprocal rank fusion, because it yields a relevance in [0, 1] that
the four-signal rerank can weigh directly (RRF keeps only ranks, and measured worse). The
coverage factor stops the best of a bad set of keyword matches (one common term out of four)
from scoring 1.0 just for being the best. How strong a match is in absolute terms is `match`:
max(cosine, keyword score), what `min_similarity` compares."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fused:
    relevance: float  # normalised max, in [0, 1]: the rerank's relevance signal and the hit's `score`
    match: float  # max(cosine clamped to [0, 1], keyword score): absolute, for min_similarity


def keyword_score(bm25: float, best_bm25: float, coverage: float) -> float:
    return (bm25 / best_bm25 if best_bm25 > 0 else 0.0) * coverage


def fuse(similarity: float | None, keyword: float | None, best_similarity: float) -> Fused:
    """best_similarity: the highest cosine among this query's candidates (0 when none is positive)."""
    cosine = max(0.0, similarity) if similarity is not None else 0.0
    vector = min(1.0, cosine / best_similarity) if best_similarity > 0 else 0.0
    kw = keyword or 0.0
    return Fused(relevance=max(vector, kw), match=min(1.0, max(cosine, kw)))


def best_similarity(similarities: list[float | None]) -> float:
    return max((s for s in similarities if s is not None), default=0.0)
