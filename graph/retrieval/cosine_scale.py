"""The backends' similarity scales, mapped back to cosine. Pure."""
from __future__ import annotations

from dataclasses import dataclass

from graph.core.errors import StartupError


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
    """Both backends' vector index score for cosine is (1 + cos) / 2 (docs/backends.md §2.1)."""
    return 2.0 * score - 1.0
