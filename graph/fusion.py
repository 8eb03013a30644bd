"""Merging vector and full-text candidates: normalised max, weighted by term coverage. Pure.

relevance = max(cosine clamped to [0, 1], keyword score), where
keyword score = (BM25 / best BM25 among the query's keyword candidates) x (share of query terms
the memory contains).

Normalised max rather than reciprocal rank fusion, because it yields a relevance in [0, 1] that
the four-signal rerank can weigh directly, and max-normalising BM25 makes the two backends'
different BM25 scales comparable. The coverage factor stops the best of a bad set of keyword
matches (one common term out of four) from scoring 1.0 just for being the best."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fused:
    relevance: float
    vector_similarity: float | None  # cosine, when the memory has an embedding
    keyword_score: float | None  # in [0, 1]; None when full-text search did not find it


def keyword_score(bm25: float, best_bm25: float, coverage: float) -> float:
    return (bm25 / best_bm25 if best_bm25 > 0 else 0.0) * coverage


def fuse(similarity: float | None, keyword: float | None) -> Fused:
    relevance = max(max(0.0, similarity) if similarity is not None else 0.0, keyword or 0.0)
    return Fused(relevance=min(1.0, relevance), vector_similarity=similarity, keyword_score=keyword)
