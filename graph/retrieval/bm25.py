"""BM25 over one small tenant's memories, for keyword candidates found by scanning the tenant
instead of the global full-text index. Pure.

Lucene's formula and defaults (k1 1.2, b 0.75), with the tenant as the collection: a term is worth
more the fewer of the tenant's memories hold it, and a shorter memory holding the same terms
scores higher. Term frequency is binary (a memory holds a term or not), which for one-line
memories loses little. Scores are comparable only within one query, like the index's."""
from __future__ import annotations

import math
from collections import Counter

K1, B = 1.2, 0.75


def bm25(hits: list[tuple[str, list[int], int]], collection_size: int, average_words: float) -> dict[str, float]:
    """hits: (id, indices of the query terms the memory holds, its length in words)."""
    df = Counter(i for _, matched, _ in hits for i in set(matched))
    idf = {i: math.log(1 + (collection_size - n + 0.5) / (n + 0.5)) for i, n in df.items()}
    average = average_words if average_words > 0 else 1.0
    return {id_: sum(idf[i] for i in set(matched)) * (K1 + 1) / (1 + K1 * (1 - B + B * words / average))
            for id_, matched, words in hits}
