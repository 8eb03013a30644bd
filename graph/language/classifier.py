"""Small text classifiers over a sentence embedding (the model search already loads): one weight row
per label and a softmax over them, a multinomial logistic regression. Fitted offline and
deterministically on the tuning half of a labelled set (bench/fit_intents.py for the question
router), shipped as a JSON file beside the package that uses it, loaded here. The question router
(graph/asking) asks its classifier only where its rules are unsure; bench/ingestion_folds.py measures
one for ingestion's rules.

What a classifier reads is a text's phrasing, not its topic: names, dates and numbers are replaced
by stand-ins before it is embedded (`masked`), so "what do you remember about Lisbon" reads as
"what do you remember about Sam". Each caller says where its names and dates are.

Loading and scoring are numpy only; `fit` imports scikit-learn (a dependency of
sentence-transformers), for the fit script and the fold benchmarks. Pure apart from reading a
shipped file."""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

# Inverse regularisation of the logistic regression, unless a caller says otherwise (the question
# router's fold benchmark chose it).
C = 32.0
NAME_STAND_IN, TIME_STAND_IN, NUMBER_STAND_IN = "Sam", "then", "7"


@dataclass(frozen=True)
class Classifier:
    name: str  # the embedding model it was fitted on: another model's vectors mean nothing to it
    labels: tuple[str, ...]
    weights: np.ndarray  # (labels, dimensions)
    bias: np.ndarray  # (labels,)

    @property
    def dimensions(self) -> int:
        return int(self.weights.shape[1])

    def scores(self, embedding: Sequence[float] | np.ndarray) -> dict[str, float]:
        """Each label's probability for one unit-length embedding."""
        logits = self.weights @ np.asarray(embedding, dtype=np.float64) + self.bias
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return {label: float(v) for label, v in zip(self.labels, p, strict=True)}

    def as_dict(self) -> dict[str, object]:
        return {"labels": list(self.labels), "weights": [[round(float(w), 6) for w in row] for row in self.weights],
                "bias": [round(float(b), 6) for b in self.bias]}

    def to_json(self) -> str:
        return json.dumps({"model": self.name, **self.as_dict()}, separators=(",", ":"))


def fit(embeddings: np.ndarray, labels: Sequence[str], name: str, c: float = C,
        balanced: bool = False) -> Classifier:
    """A multinomial logistic regression on the rows (deterministic: lbfgs from zero); `balanced`
    weighs each label's rows by the inverse of its count (a rare label counts as much as a common one)."""
    from sklearn.linear_model import LogisticRegression

    if len(set(labels)) < 2:
        raise ValueError("a classifier needs at least two labels among its rows")
    weighing = "balanced" if balanced else None
    model = LogisticRegression(C=c, max_iter=5000, class_weight=weighing).fit(
        np.asarray(embeddings, dtype=np.float64), list(labels))
    weights, bias = model.coef_.astype(np.float64), model.intercept_.astype(np.float64)
    if len(model.classes_) == 2:  # scikit-learn keeps one row for two labels: the softmax wants both
        weights, bias = np.vstack([-weights / 2, weights / 2]), np.array([-bias[0] / 2, bias[0] / 2])
    return Classifier(name=name, labels=tuple(str(x) for x in model.classes_), weights=weights, bias=bias)


def save(path: Path, classifiers: Mapping[str, Classifier]) -> None:
    """Several classifiers fitted on one embedding model, as one file (named heads)."""
    names = {c.name for c in classifiers.values()}
    if len(names) != 1:
        raise ValueError("the classifiers of one file are fitted on one embedding model")
    body = {"model": names.pop(), "classifiers": {k: c.as_dict() for k, c in sorted(classifiers.items())}}
    path.write_text(json.dumps(body, separators=(",", ":")) + "\n")


@cache
def load(path: Path) -> Mapping[str, Classifier]:
    """The classifiers of a shipped file by head name ({} when the file is absent)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {head: Classifier(name=data["model"], labels=tuple(c["labels"]),
                             weights=np.asarray(c["weights"], dtype=np.float64),
                             bias=np.asarray(c["bias"], dtype=np.float64))
            for head, c in data["classifiers"].items()}


def for_model(path: Path, name: str, dimensions: int) -> Mapping[str, Classifier]:
    """The shipped classifiers when they were fitted on this embedding model, else {} (the rules alone)."""
    found = load(path)
    return found if all(c.name == name and c.dimensions == dimensions for c in found.values()) else {}


def same(a: Mapping[str, Classifier], b: Mapping[str, Classifier], tolerance: float = 1e-4) -> bool:
    """Whether two sets of classifiers are the same up to the rounding of a shipped file."""
    def close(x: Classifier, y: Classifier) -> bool:
        return (x.labels == y.labels and x.name == y.name and x.weights.shape == y.weights.shape
                and np.allclose(x.weights, y.weights, atol=tolerance) and np.allclose(x.bias, y.bias, atol=tolerance))

    return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)


def masked(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """`text` with each (start, end, stand-in) span replaced; a span inside an earlier one is skipped."""
    out, at = [], 0
    for start, end, stand_in in sorted(spans):
        if start < at:
            continue
        out += [text[at:start], stand_in]
        at = end
    return "".join(out) + text[at:]
