"""Pure retrieval arithmetic: exact cosine top-k and how far to over-fetch from a global ANN index."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def top_k_cosine(query: np.ndarray, ids: Sequence[str], vectors: np.ndarray, k: int) -> list[tuple[str, float]]:
    """Exact cosine similarity of `query` against each row; the best k, best first (ties by id)."""
    if len(ids) == 0 or k <= 0:
        return []
    norms = np.linalg.norm(vectors, axis=1) * float(np.linalg.norm(query))
    scores = (vectors @ query) / np.where(norms == 0, 1.0, norms)
    k = min(k, len(ids))
    top = np.argpartition(-scores, k - 1)[:k]
    ranked = sorted(top, key=lambda i: (-scores[i], ids[i]))
    return [(ids[i], float(scores[i])) for i in ranked]


def index_score_to_cosine(score: float) -> float:
    """Neo4j's (and ArcadeDB's) vector index score for cosine is (1 + cos) / 2."""
    return 2.0 * score - 1.0


def first_k(limit: int, tenant: int, total: int) -> int:
    """How many global neighbours to ask for so that about `limit` of them are the tenant's.

    The index ranks all tenants together; a tenant holding a share s of it expects s*k of the top k.
    Ask for twice that, never less than 2*limit, never more than the index holds."""
    if tenant <= 0 or total <= 0:
        return 0
    share = tenant / total
    return min(total, max(2 * limit, math.ceil(2 * limit / share)))


def next_k(k: int, total: int) -> int:
    return min(total, k * 4)
