"""How far to over-fetch from a global ANN index so one tenant still fills its results. Pure."""
from __future__ import annotations

import math

# A request sized from a known share asks for a fifth more than the share says would fill the pool.
# The index's time grows with the page (on ArcadeDB at 10k, the vector statement for 1,500 / 1,000 /
# 150 neighbours took 37 / 28 / 8 ms on a loaded machine); at 1.2 a tenth of the index comes up short
# in about one search of fifty, and that one widens by what its own page showed (next_k), not
# fourfold (docs/benchmarks.md, "Search against the plain vector store").
SHARE_MARGIN = 1.2


def first_k(limit: int, vector_max_k: int, share: float | None = None) -> int:
    """The first index request. With the tenant's share of the index's hits known, about enough to
    fill `limit`; otherwise enough for a tenant holding a few percent of the index."""
    if share:
        return min(vector_max_k, max(100, math.ceil(limit / share * SHARE_MARGIN)))
    return min(vector_max_k, max(100, 20 * limit))


def next_k(k: int, total: int, vector_max_k: int, kept: int = 0, pool: int = 0) -> int:
    """The request after a page of `k` that held `kept` of the tenant's shown memories, short of
    `pool`: sized from the share that page showed, with the margin (and at least half as much again),
    or four times as large when it held none."""
    wanted = max(math.ceil(k * pool / kept * SHARE_MARGIN), k + k // 2) if 0 < kept < pool else k * 4
    return min(total, vector_max_k, wanted)


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


# ArcadeDB scores an allow-list exactly while it holds at most a fifth of the index's vectors (its
# vectorIndex.prefilterMaxSelectivity); a tenant holding more gets a short, cheap global page anyway,
# and collecting its list would cost more than that page (docs/benchmarks.md).
OWN_LIST_MAX_SHARE = 0.2


def search_own_list(share: float | None) -> bool:
    """Whether a tenant whose hits made up `share` of the global index's pages (None: not seen yet)
    should have its vector search run over its own memories instead."""
    return share is not None and share <= OWN_LIST_MAX_SHARE
