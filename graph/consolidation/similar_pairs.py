"""Every pair of vectors with a cosine at or above a threshold, exactly: one matrix product per pair of
blocks, so memory stays at a few blocks however many vectors there are. Pure (numpy in, pairs out).

The near-duplicate step uses it, when an operator opts in, for tenants up to
CREDENCE_CONSOLIDATION_EXACT_PAIRS_MAX memories (default 0: the vector index always): it finds every
pair the index would, and any the index's approximate search might miss, at a cost quadratic in the
tenant (docs/consolidation.md)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

BLOCK = 2_048  # rows per block: a block pair's products are 16 MB of float32


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (cosine is then a dot product); a zero row stays zero and matches nothing."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


def similar_pairs(ids: Sequence[str], vectors: np.ndarray, threshold: float,
                  block: int = BLOCK) -> list[tuple[str, str, float]]:
    """(a, b, cosine) for each pair of rows with a cosine of at least `threshold`, a before b in `ids`
    order, each pair once; `vectors` holds one row per id."""
    if len(ids) != len(vectors):
        raise ValueError(f"{len(ids)} ids for {len(vectors)} vectors")
    rows = unit_rows(np.asarray(vectors, dtype=np.float32))
    found: list[tuple[str, str, float]] = []
    for i in range(0, len(rows), block):
        left = rows[i:i + block]
        for j in range(i, len(rows), block):
            products = left @ rows[j:j + block].T
            a, b = np.nonzero(products >= threshold)
            keep = (a + i) < (b + j)  # the upper triangle: each pair once, never a row with itself
            for x, y in zip(a[keep].tolist(), b[keep].tolist(), strict=True):
                found.append((ids[x + i], ids[y + j], float(products[x, y])))
    return found
