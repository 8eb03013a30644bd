"""The fusion's weights, fitted on tuning halves, and the offline rankings of saved candidate pools
that the conversation benchmark compares (plain RRF, the normalised max it replaced, the shipped
fusion and its ablations). Ranking a saved pool offline is what `RetrievalService` does to it,
minus the rerank, whose other three signals are the same for every turn of these datasets."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from graph.retrieval import fusion, keywords
from graph.retrieval.service import pool_size


def pool(vector: dict, keyword: dict, terms: list[str], own: str | None, size: int) -> dict:
    """One question's candidates as the service sees them: cosine and rank from the vector pool,
    BM25, rank and term coverage from the keyword pool."""
    cands: dict[str, dict] = {}
    for rank, (id_, f) in enumerate(vector.items(), 1):
        cands[id_] = {"id": id_, "cos": f.similarity, "vrank": rank, "bm25": None, "krank": None, "cov": 0.0}
    for rank, (id_, f) in enumerate(keyword.items(), 1):
        c = cands.setdefault(id_, {"id": id_, "cos": None, "vrank": None, "cov": 0.0})
        c.update(bm25=f.score, krank=rank, cov=len(keywords.hits(terms, f.text or "")) / max(1, len(terms)))
    cands.pop(own, None)
    return {"cands": list(cands.values()), "floor": fusion.cosine_floor([f.similarity for f in vector.values()], size),
            "best_bm25": max((f.score for f in keyword.values()), default=0.0), "terms": len(terms)}


SERVICE_POOL = pool_size(10)  # what each retriever hands a limit-10 search


def service_view(p: dict, n: int = SERVICE_POOL) -> dict:
    """The candidates a limit-10 search fuses: each retriever's best n, the floor from those."""
    if "view" not in p:
        cands = []
        for c in p["cands"]:
            v = c["vrank"] is not None and c["vrank"] <= n
            k = c["krank"] is not None and c["krank"] <= n
            if v or k:
                cands.append({**c, "cos": c["cos"] if v else None, "vrank": c["vrank"] if v else None,
                              "bm25": c["bm25"] if k else None, "krank": c["krank"] if k else None,
                              "cov": c["cov"] if k else 0.0})
        sims = [c["cos"] for c in cands if c["cos"] is not None]
        p["view"] = {"cands": cands, "floor": fusion.cosine_floor(sims, n), "best_bm25": p["best_bm25"],
                     "terms": p.get("terms", 0)}  # pools saved before terms were kept: 0, undamped
    return p["view"]


def _top(scores: dict[str, float], k: int = 10) -> list[str]:
    return [i for i, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def rrf(p: dict, k: int = 60) -> list[str]:
    return _top({c["id"]: (1 / (k + c["vrank"]) if c["vrank"] else 0) + (1 / (k + c["krank"]) if c["krank"] else 0)
                 for c in p["cands"]})


def normalised_max(p: dict) -> list[str]:
    """The fusion before issue 12: each retriever divided by its best, the larger of the two."""
    p = service_view(p)
    best = max((c["cos"] for c in p["cands"] if c["cos"] is not None), default=0.0)
    out = {}
    for c in p["cands"]:
        vec = min(1.0, max(0.0, c["cos"]) / best) if c["cos"] is not None and best > 0 else 0.0
        kw = (c["bm25"] / p["best_bm25"] * c["cov"]) if c["bm25"] is not None and p["best_bm25"] > 0 else 0.0
        out[c["id"]] = max(vec, kw)
    return _top(out)


@dataclass(frozen=True)
class Model:
    weights: fusion.FusionWeights

    def rank(self, p: dict) -> list[str]:
        p = service_view(p)
        return _top({c["id"]: fusion.relevance(self.weights, _cosine(c, p), c["bm25"], c["cov"], p["terms"])
                     for c in p["cands"]})

    def describe(self) -> str:
        return self.weights.describe()


def _cosine(c: dict, p: dict) -> float:
    return c["cos"] if c["cos"] is not None else p["floor"]


def shipped() -> Model:
    return Model(fusion.WEIGHTS)


def fit_modes(rows: list[dict]) -> dict[str, Model]:
    """One fit per search mode, over the signals that mode has."""
    return {"hybrid": fit(rows), "vector": fit(rows, off=("bm25", "coverage")), "keyword": fit(rows, off=("cosine",))}


FEATURES = ("cosine", "bm25", "coverage")


def _matrix(rows: list[dict], off: tuple[str, ...], half: float) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for r in rows:
        view = service_view(r["pool"])
        for c in view["cands"]:
            # As the service: the query's length damps keyword evidence in hybrid ranking only.
            terms = view["terms"] if "cosine" not in off else 0
            xs.append(fusion.features(_cosine(c, view), c["bm25"], c["cov"], half, terms))
            ys.append(1.0 if c["id"] in r["relevant"] else 0.0)
    x, y = np.array(xs), np.array(ys)
    for name in off:
        x[:, FEATURES.index(name)] = 0.0
    return x, y


HALVES = (1.0, 2.5, 5.0, 10.0, 20.0)
# The relevance the strongest answers (95th percentile) are stretched to. The rerank weighs trust
# 0.25 against relevance 0.40, so a trusted off-topic memory (trust 1.0 against 0.7: 0.075 of
# composite) outranks the answer unless relevance leads by more than 0.19: at 0.95, the job title
# (cosine 0.55) led "currently reading Piranesi" (cosine 0.35) for "What is the user's role?" by
# 0.20, less than trust and a week of recency (tests/integration/test_hybrid_search.py). Ranking
# by relevance alone does not change with the stretch.
TOP_ANSWER = 0.99


def fit(rows: list[dict], off: tuple[str, ...] = ()) -> Model:
    """The BM25 half-point among HALVES that ranks the tuning questions best (mean recall@10 over
    the datasets), with its logistic regression."""
    def score(m: Model) -> float:
        names = sorted({r["dataset"] for r in rows})
        return sum(sum(len(set(m.rank(r["pool"])) & r["relevant"]) / len(r["relevant"]) for r in mine) / len(mine)
                   for mine in ([r for r in rows if r["dataset"] == n] for n in names)) / len(names)
    candidates = [_fit(rows, off, h) for h in (HALVES if "bm25" not in off else (5.0,))]
    return max(candidates, key=score)


def _fit(rows: list[dict], off: tuple[str, ...], half: float, l2: float = 1e-3) -> Model:
    """Class-balanced logistic regression (Newton steps) of 'is an evidence turn' on the features,
    over every candidate of every tuning question; each dataset weighs the same in the fit."""
    xs, ys, ws = [], [], []
    for name in sorted({r["dataset"] for r in rows}):
        x, y = _matrix([r for r in rows if r["dataset"] == name], off, half)
        pos, neg = max(1.0, y.sum()), max(1.0, len(y) - y.sum())
        xs.append(x), ys.append(y), ws.append(np.where(y > 0, 0.5 / pos, 0.5 / neg))
    x, y, w = np.vstack(xs), np.concatenate(ys), np.concatenate(ws)
    x = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ beta))
        grad = x.T @ (w * (p - y)) + l2 * beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(beta))
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    # The fit sets the direction and where relevance is 0.5 (answer and non-answer equally likely);
    # its slope is then stretched so the strongest answers (the 95th percentile of the evidence
    # turns' logits) reach TOP_ANSWER (0.99). Evidence labels in conversations are sparse, and the plain
    # probability of being *the* labelled turn keeps every real match below about 0.75, too flat
    # a scale for the rerank to tell an on-topic memory from a trusted off-topic one.
    logits = (x @ beta)[y > 0]
    top = float(np.percentile(logits, 95))
    stretch = max(1.0, math.log(TOP_ANSWER / (1 - TOP_ANSWER)) / top) if top > 0 else 1.0
    *coef, bias = (float(b) * stretch for b in beta)
    return Model(fusion.FusionWeights(**dict(zip(FEATURES, coef, strict=True)), bias=bias, bm25_half=half))


def ablations(rows: list[dict], model: Model) -> list[tuple[str, object]]:
    tuning = [r for r in rows if r["half"] == "tuning"]
    out = [("shipped fusion (all signals)", model.rank)]
    for name in FEATURES:
        out.append((f"without {name} (refitted)", fit(tuning, off=(name,)).rank))
    out.append(("plain RRF, k = 60", rrf))
    return out


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def neighbours(ds, ids: dict[str, str]) -> dict[str, tuple[str | None, str | None]]:
    """Memory id -> the memories of the turns just before and after it in its conversation."""
    out = {}
    for turns in ds.conversations.values():
        seq = [ids[t.key] for t in turns]
        for i, m in enumerate(seq):
            out.setdefault(m, (seq[i - 1] if i else None, seq[i + 1] if i + 1 < len(seq) else None))
    return out


# Neighbour turns (issue 12 item 3), measured offline: the service has no notion of a conversation
# yet, so these rank the saved pools with the turn order the dataset gives.
NEIGHBOUR_WEIGHTS = (0.05, 0.1, 0.2, 0.3, 0.5)


def with_neighbours(model: Model, neighbours: dict, weight: float, top_n: int = 10):
    """Rank a question's pool with its turns' neighbours: the previous and next turns of the top_n
    join the pool (with the relevance of a memory neither retriever found), and each candidate
    scores its own relevance + weight x the better of its two neighbours' relevance. A neighbour
    the question may not see (its own turn, a later session) is left out."""
    def rank(r: dict) -> list[str]:
        p = service_view(r["pool"])
        nbs, said = neighbours[r["dataset"]], neighbours[r["dataset"] + ":event_at"]
        rel = {c["id"]: fusion.relevance(model.weights, _cosine(c, p), c["bm25"], c["cov"], p["terms"])
               for c in p["cands"]}
        unseen = fusion.relevance(model.weights, p["floor"], None, 0.0)

        def visible(x: str | None) -> bool:
            return x is not None and x != r["own"] and (r.get("before") is None or said[x] < r["before"])
        for top in sorted(rel, key=lambda k: (-rel[k], k))[:top_n]:
            for x in nbs.get(top, ()):
                if visible(x):
                    rel.setdefault(x, unseen)
        return _top({k: v + weight * max((rel.get(x, unseen) for x in nbs.get(k, ()) if visible(x)), default=0.0)
                     for k, v in rel.items()})
    return rank


def fit_neighbour_weight(rows: list[dict], model: Model, neighbours: dict) -> float:
    """The weight among NEIGHBOUR_WEIGHTS with the best mean of recall@10 and MRR over the tuning
    halves (each dataset weighs the same): recall alone picks weights that bury the best answer."""
    names = sorted({r["dataset"] for r in rows})

    def score(w: float) -> float:
        rank, total = with_neighbours(model, neighbours, w), 0.0
        for n in names:
            mine = [r for r in rows if r["dataset"] == n]
            for r in mine:
                top = rank(r)
                total += (len(set(top) & r["relevant"]) / len(r["relevant"])
                          + next((1 / i for i, x in enumerate(top, 1) if x in r["relevant"]), 0.0)) / (2 * len(mine))
        return total / len(names)
    return max(NEIGHBOUR_WEIGHTS, key=score)
