"""Merging vector and full-text candidates: normalised max.

Relevance = max(cosine clamped to [0, 1], BM25 / best BM25 among the query's candidates). Chosen
over reciprocal rank fusion because it yields a relevance in [0, 1] that the four-signal rerank
can weigh directly, and because max-normalising BM25 makes the two backends' different BM25
scales comparable. A memory found by both keeps both raw scores for explain."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fused:
    relevance: float
    vector_similarity: float | None
    keyword_score: float | None  # normalised to [0, 1]


def normalised_max(vector: dict[str, float], keyword: dict[str, float]) -> dict[str, Fused]:
    best = max(keyword.values(), default=0.0)
    fused = {}
    for memory_id in vector.keys() | keyword.keys():
        v = vector.get(memory_id)
        k = keyword.get(memory_id)
        k_norm = (k / best) if (k is not None and best > 0) else (0.0 if k is not None else None)
        relevance = max(max(0.0, v) if v is not None else 0.0, k_norm or 0.0)
        fused[memory_id] = Fused(relevance=min(1.0, relevance), vector_similarity=v, keyword_score=k_norm)
    return fused
