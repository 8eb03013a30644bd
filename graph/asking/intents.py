"""A small intent classifier over the question's sentence embedding (the model search already loads):
one weight row per intent, a softmax over them. Fitted offline, deterministically, on the tuning half
of the labelled questions only (bench/fit_intents.py writes intents.json beside this file); the
router asks it only when no rule decides (graph/asking/blend.py).

Loading is numpy only; `fit` imports scikit-learn (a dependency of sentence-transformers), for the
generator script and the fold benchmark. Pure apart from reading the shipped file."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

SHIPPED = Path(__file__).with_name("intents.json")
C = 32.0  # inverse regularisation of the logistic regression (bench/routing_folds.py chose it)


@dataclass(frozen=True)
class IntentModel:
    name: str  # the embedding model it was fitted on: another model's vectors mean nothing to it
    labels: tuple[str, ...]
    weights: np.ndarray  # (labels, dimensions)
    bias: np.ndarray  # (labels,)

    @property
    def dimensions(self) -> int:
        return int(self.weights.shape[1])

    def scores(self, embedding: Sequence[float] | np.ndarray) -> dict[str, float]:
        """Each intent's probability for one unit-length embedding."""
        logits = self.weights @ np.asarray(embedding, dtype=np.float64) + self.bias
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return {label: float(v) for label, v in zip(self.labels, p, strict=True)}

    def to_json(self) -> str:
        return json.dumps({"model": self.name, "labels": list(self.labels),
                           "weights": [[round(float(w), 6) for w in row] for row in self.weights],
                           "bias": [round(float(b), 6) for b in self.bias]}, separators=(",", ":"))


def fit(embeddings: np.ndarray, labels: Sequence[str], name: str) -> IntentModel:
    """A multinomial logistic regression on the rows (deterministic: lbfgs from zero)."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, max_iter=5000).fit(np.asarray(embeddings, dtype=np.float64), list(labels))
    return IntentModel(name=name, labels=tuple(str(c) for c in model.classes_),
                       weights=model.coef_.astype(np.float64), bias=model.intercept_.astype(np.float64))


def for_model(name: str, dimensions: int) -> IntentModel | None:
    """The shipped model when it was fitted on this embedding model, else None (the rules alone)."""
    model = shipped()
    return model if model is not None and model.name == name and model.dimensions == dimensions else None


@cache
def shipped() -> IntentModel | None:
    """The model fitted on the tuning half, or None when the file is absent."""
    if not SHIPPED.exists():
        return None
    data = json.loads(SHIPPED.read_text())
    return IntentModel(name=data["model"], labels=tuple(data["labels"]),
                       weights=np.asarray(data["weights"], dtype=np.float64),
                       bias=np.asarray(data["bias"], dtype=np.float64))
