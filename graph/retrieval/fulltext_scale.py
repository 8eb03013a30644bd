"""The backends' full-text scores on one BM25 scale. Pure.

ArcadeDB scores a match with BM25 as written, idf · tf · (k1 + 1) / (tf + k1 · length norm), as
graph/retrieval/bm25.py does. Lucene 8 and later, and so every Neo4j 5, leave out the constant
(k1 + 1): no ranking changes, but every score is 1 / 2.2 of ArcadeDB's for the same memory in the
same index (measured: 0.4545 for each of 1,757 hits, docs/backends.md §2.11). The fusion reads BM25
on an absolute scale, BM25 / (BM25 + 20), fitted on ArcadeDB's, so on Neo4j keyword evidence counted
for less than half as much until its scores were multiplied back."""
from __future__ import annotations

from graph.retrieval.bm25 import K1


def bm25_scale(neo4j: bool) -> float:
    """What a backend's full-text score is multiplied by to be BM25 with its (k1 + 1) factor."""
    return K1 + 1 if neo4j else 1.0
