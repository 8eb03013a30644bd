"""Merging vector and full-text candidates into one relevance on an absolute scale. Pure.

relevance = sigmoid(bias + a·cosine + b·BM25 / (BM25 + h) + c·coverage)

Each signal is absolute: the cosine, the BM25 score through a saturating transform (h is the
score worth half the keyword weight), and the share of the query's terms the memory holds. None is
divided by the best of this query's candidates, so the best of a weak set is not worth 1.0 (the
normalised max this replaced gave a 0.30 cosine relevance 1.0 when it was the best there was, and
let a poor vector match outrank a strong keyword match). The weights are a class-balanced logistic
regression of "is a labelled evidence turn" on these signals, fitted on the tuning halves of two
public conversational-memory datasets (bench/conversation_quality.py --fit): relevance is 0.5
where an answer and a non-answer are equally likely. The fit's slope is then stretched so the
strongest answers of the tuning halves (95th percentile) reach 0.99: evidence labels in
conversations are sparse, and the plain probability of being *the* labelled turn keeps every real
match below about 0.75, too flat for the rerank to tell an on-topic memory from a trusted
off-topic one (bench/fusion_fit.py: TOP_ANSWER says how far is far enough). Each mode has its
own fit over the signals it has, so a vector-only or keyword-only relevance is on the same scale
as a hybrid one.

A keyword-only candidate was not among the vector pool's best, so its cosine is taken to be the
pool's lowest (an upper bound of its true cosine, which is known only once it is hydrated).

`match`, what `min_similarity` compares, stays max(cosine, keyword score): the keyword score is
BM25 divided by the query's best BM25 and weighted by term coverage (explain's `keyword_score`)."""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class FusionWeights:
    cosine: float
    bm25: float
    coverage: float
    bias: float
    bm25_half: float = 5.0

    def describe(self) -> str:
        return (f"sigmoid({self.bias:.2f} + {self.cosine:.2f}·cosine + {self.bm25:.2f}·BM25/(BM25 + "
                f"{self.bm25_half:g}) + {self.coverage:.2f}·coverage)")


# Fitted on the tuning halves of REALTALK and RealMem (bench/conversation_quality.py --fit;
# docs/benchmarks.md, "Real conversations"); one set per mode, over the signals that mode has,
# each over the pools a limit-10 search ranks (100 candidates per retriever, RetrievalService.pool_size).
WEIGHTS = FusionWeights(cosine=6.425, bm25=3.790, coverage=2.405, bias=-3.846, bm25_half=20.0)
VECTOR_WEIGHTS = FusionWeights(cosine=13.714, bm25=0.0, coverage=0.0, bias=-5.668)
KEYWORD_WEIGHTS = FusionWeights(cosine=0.0, bm25=4.922, coverage=5.172, bias=-1.998, bm25_half=20.0)
BY_MODE = {"hybrid": WEIGHTS, "vector": VECTOR_WEIGHTS, "keyword": KEYWORD_WEIGHTS}


@dataclass(frozen=True)
class Fused:
    relevance: float  # calibrated, in (0, 1): the rerank's relevance signal and the hit's `score`
    match: float  # max(cosine clamped to [0, 1], keyword score): what min_similarity compares


# Keyword evidence counts in full for a search text of up to this many content terms, and in
# proportion beyond (12/n). A long text (a dialogue so far, a pasted message) spreads its terms
# over small talk, and BM25, a sum over terms, saturates on chatter alone: the memories sharing
# "great", "happy" and the user's name outrank the one on topic. Picked on the tuning halves among
# 8-24 (docs/benchmarks.md); REALTALK's questions never exceed 12 terms and are unaffected.
LONG_QUERY_TERMS = 12


def keyword_weight(terms: int) -> float:
    """How much a search text's keyword evidence counts, from its number of content terms (0: not
    known, in full)."""
    return min(1.0, LONG_QUERY_TERMS / terms) if terms > 0 else 1.0


def features(cosine: float, bm25: float | None, coverage: float, half: float,
             terms: int = 0) -> tuple[float, float, float]:
    saturated = bm25 / (bm25 + half) if bm25 and bm25 > 0 else 0.0
    damp = keyword_weight(terms)
    return cosine, damp * saturated, damp * coverage if bm25 is not None else 0.0


def relevance(w: FusionWeights, cosine: float, bm25: float | None, coverage: float, terms: int = 0) -> float:
    """terms: the search text's number of content terms (keyword_weight)."""
    c, b, v = features(cosine, bm25, coverage, w.bm25_half, terms)
    z = w.bias + w.cosine * c + w.bm25 * b + w.coverage * v
    return 1 / (1 + math.exp(-z)) if z > -700 else 0.0


def keyword_score(bm25: float, best_bm25: float, coverage: float) -> float:
    return (bm25 / best_bm25 if best_bm25 > 0 else 0.0) * coverage


def fuse(mode: str, similarity: float | None, floor: float, bm25: float | None, coverage: float,
         keyword: float | None, terms: int = 0) -> Fused:
    """similarity: the memory's cosine, None when only full-text search found it (then `floor`, the
    vector pool's lowest cosine, stands in for ranking); bm25 and coverage: its full-text score and
    share of query terms (None and 0 when full-text search did not find it); keyword: its
    keyword_score; terms: the query's number of content terms, which sets how much the keyword
    evidence counts against the cosine (in keyword mode there is no cosine to weigh it against, and
    the cosine is not ranked by)."""
    cosine = 0.0 if mode == "keyword" else similarity if similarity is not None else floor
    rel = relevance(BY_MODE[mode], cosine, bm25, coverage, terms if mode == "hybrid" else 0)
    return Fused(relevance=rel, match=min(1.0, max(max(0.0, similarity or 0.0), keyword or 0.0)))


def cosine_floor(similarities: list[float | None], pool: int) -> float:
    """The cosine a keyword-only candidate is taken to have: the lowest of a full vector pool (it
    ranked below all of them), 0 when the pool held every shown memory with an embedding."""
    known = [s for s in similarities if s is not None]
    return max(0.0, min(known)) if len(known) >= pool else 0.0


def best_similarity(similarities: list[float | None]) -> float:
    return max((s for s in similarities if s is not None), default=0.0)
