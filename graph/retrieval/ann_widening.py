"""How far to over-fetch from a global ANN index so one tenant still fills its results. Pure."""
from __future__ import annotations

import math

SHARE_MARGIN = 1.5  # a first request sized from a known share asks for half as much again


def first_k(limit: int, vector_max_k: int, share: float | None = None) -> int:
    """The first index request. With the tenant's share of the index's hits known, about enough to
    fill `limit`; otherwise enough for a tenant holding a few percent of the index."""
    if share:
        return min(vector_max_k, max(100, math.ceil(limit / share * SHARE_MARGIN)))
    return min(vector_max_k, max(100, 20 * limit))


def next_k(k: int, total: int, vector_max_k: int) -> int:
    return min(total, vector_max_k, k * 4)


def after_page(kept: int, pool: int, returned: int, k: int, vector_max_k: int) -> str:
    """What to do after an index page of `returned` hits for a request of `k`, `kept` of them the
    tenant's shown ones: "done", "widen" or "exact".

    A short page does not prove the whole index was ranked: an HNSW search may return fewer than k
    near the index's size (Neo4j does), so a short page that leaves the pool unfilled ends in exact
    ranking rather than in fewer results than the tenant has."""
    if kept >= pool:
        return "done"
    if returned < k or k >= vector_max_k:
        return "exact"
    return "widen"
