"""How far any fusion of the two candidate lists could go on the conversation benchmark: flexible
learners over more signals than the shipped fusion (ranks, and scores relative to the query's best,
which the service's absolute scale forgoes), trained on the tuning halves' saved pools, scored on
the test halves. If these cannot get near a target, no reweighting of the same candidates will.

    .venv/bin/python bench/conversation_quality.py          # saves the pools first
    .venv/bin/python bench/fusion_ceiling.py [--pools bench/out/conversation_pools.pkl]

scikit-learn comes with sentence-transformers; nothing here runs in the service."""
from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import fusion_fit

FEATURES = ("cosine", "bm25_sat", "coverage", "rrf_vector", "rrf_keyword", "cosine_minus_best", "bm25_over_best",
            "vector_found", "keyword_found")


def features(row: dict) -> tuple[np.ndarray, list[str]]:
    p = fusion_fit.service_view(row["pool"])
    best_cos = max((c["cos"] for c in p["cands"] if c["cos"] is not None), default=0.0)
    best_bm25 = max((c["bm25"] or 0.0 for c in p["cands"]), default=0.0) or 1.0
    xs, ids = [], []
    for c in p["cands"]:
        cos, bm25 = fusion_fit._cosine(c, p), c["bm25"] or 0.0
        xs.append([cos, bm25 / (bm25 + 20), c["cov"], 1 / (60 + (c["vrank"] or 300)), 1 / (60 + (c["krank"] or 300)),
                   cos - best_cos, bm25 / best_bm25, float(c["vrank"] is not None), float(c["krank"] is not None)])
        ids.append(c["id"])
    return np.array(xs), ids


def main() -> None:
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pools", type=Path, default=Path(__file__).parent / "out" / "conversation_pools.pkl")
    rows = pickle.loads(parser.parse_args().pools.read_bytes())[0]
    tuning = [r for r in rows if r["half"] == "tuning"]
    xs, ys = [], []
    for r in tuning:
        x, ids = features(r)
        xs.append(x)
        ys.append(np.array([i in r["relevant"] for i in ids]))
    x, y = np.vstack(xs), np.concatenate(ys)
    learners = {"logistic regression": LogisticRegression(max_iter=2000, class_weight="balanced"),
                "gradient-boosted trees": HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05,
                                                                         max_leaf_nodes=15, random_state=0)}
    print(f"features: {', '.join(FEATURES)}; trained on {len(tuning)} tuning-half questions\n")
    print("| learner | dataset (test half) | recall@10 | MRR |\n| --- | --- | --- | --- |")
    for name, learner in learners.items():
        learner.fit(x, y)
        for dataset in sorted({r["dataset"] for r in rows}):
            recall = mrr = n = 0.0
            for r in rows:
                if r["dataset"] != dataset or r["half"] != "test":
                    continue
                xq, ids = features(r)
                ranked = [ids[i] for i in np.argsort(-learner.predict_proba(xq)[:, 1], kind="stable")]
                top = [i for i in ranked if i != r["own"]][:10]
                recall += len(set(top) & r["relevant"]) / len(r["relevant"])
                mrr += next((1 / k for k, i in enumerate(top, 1) if i in r["relevant"]), 0.0)
                n += 1
            print(f"| {name} | {dataset} | {recall / n:.3f} | {mrr / n:.3f} |")


if __name__ == "__main__":
    main()
