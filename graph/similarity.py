"""Pure retrieval arithmetic: similarity scales and how far to over-fetch from a global ANN index."""
from __future__ import annotations

import math
from dataclasses import dataclass

from graph.errors import StartupError


@dataclass(frozen=True)
class CosineScale:
    """Maps the backend's vector.similarity.cosine back to cosine, from two measured points:
    its value for opposite vectors (cos -1) and for orthogonal ones (cos 0)."""
    opposite: float
    orthogonal: float

    def __post_init__(self) -> None:
        if not self.orthogonal > self.opposite:
            raise StartupError(f"vector.similarity.cosine is not increasing in cosine "
                               f"(opposite {self.opposite}, orthogonal {self.orthogonal}); unsupported backend")

    def to_cosine(self, value: float) -> float:
        return (value - self.orthogonal) / (self.orthogonal - self.opposite)


def index_score_to_cosine(score: float) -> float:
    """Both backends' vector index score for cosine is (1 + cos) / 2 (backends.md §2.1)."""
    return 2.0 * score - 1.0


SHARE_MARGIN = 1.5  # a first request sized from a known share asks for half as much again


def first_k(limit: int, vector_max_k: int, share: float | None = None) -> int:
    """The first index request. With the tenant's share of the index's hits known, about enough to
    fill `limit`; otherwise enough for a tenant holding a few percent of the index."""
    if share:
        return min(vector_max_k, max(100, math.ceil(limit / share * SHARE_MARGIN)))
    return min(vector_max_k, max(100, 20 * limit))


def next_k(k: int, total: int, vector_max_k: int) -> int:
    return min(total, vector_max_k, k * 4)
