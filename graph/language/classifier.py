"""Small text classifiers over a sentence embedding (the model search already loads): one weight row
per label and a softmax over them, a multinomial logistic regression. Fitted offline and
deterministically on the tuning half of a labelled set (bench/fit_intents.py for the question
router), shipped as a JSON file beside the package that uses it, loaded here. The question router
(graph/asking) asks its classifier only where its rules are unsure; bench/ingestion_folds.py measures
one for ingestion's rules.

What a classifier reads is a text's phrasing, not its topic: names, dates and numbers are replaced
by stand-ins before it is embedded (`masked`), so "what do you remember about Lisbon" reads as
"what do you remember about Sam". Each caller says where its names and dates are.

A classifier may also read the words of the (masked) text beside its embedding: each word and
word pair of a vocabulary fitted with it, present or not, as a unit-length vector scaled by
`word_scale` and appended to the embedding. The embedding carries what a phrasing means; the words
carry the few markers it blurs ("the final call on", "quick summary of").

Loading and scoring are numpy only; `fit` imports scikit-learn (a dependency of
sentence-transformers), for the fit script and the fold benchmarks. Pure apart from reading a
shipped file."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import numpy as np

# Inverse regularisation of the logistic regression, unless a caller says otherwise (the question
# router's fold benchmark chose it).
C = 32.0
NAME_STAND_IN, TIME_STAND_IN, NUMBER_STAND_IN = "Sam", "then", "7"
_WORD = re.compile(r"[a-z']+")


def grams(text: str) -> set[str]:
    """The words and adjacent word pairs of a text, lower-cased, as a word vocabulary holds them."""
    words = _WORD.findall(text.lower())
    return set(words) | {f"{a} {b}" for a, b in pairwise(words)}


def vocabulary_of(texts: Iterable[str], min_lines: int) -> tuple[str, ...]:
    """The words and word pairs found in at least `min_lines` of the texts, sorted."""
    counts: dict[str, int] = {}
    for text in texts:
        for gram in grams(text):
            counts[gram] = counts.get(gram, 0) + 1
    return tuple(sorted(g for g, n in counts.items() if n >= min_lines))


def word_features(texts: Sequence[str], vocabulary: Sequence[str], scale: float) -> np.ndarray:
    """Each text's vocabulary entries present, as a unit-length row times `scale` (zeros for none)."""
    index = {g: j for j, g in enumerate(vocabulary)}
    out = np.zeros((len(texts), len(vocabulary)), dtype=np.float64)
    for row, text in enumerate(texts):
        for gram in grams(text):
            if gram in index:
                out[row, index[gram]] = 1.0
        found = out[row].sum()
        if found:
            out[row] *= scale / np.sqrt(found)
    return out


@dataclass(frozen=True)
class Classifier:
    name: str  # the embedding model it was fitted on: another model's vectors mean nothing to it
    labels: tuple[str, ...]
    weights: np.ndarray  # (labels, dimensions + words)
    bias: np.ndarray  # (labels,)
    vocabulary: tuple[str, ...] = ()  # the words and word pairs it reads beside the embedding, if any
    word_scale: float = 0.0

    @property
    def dimensions(self) -> int:
        """The embedding's dimensions (the weights' columns past them are the vocabulary's)."""
        return int(self.weights.shape[1]) - len(self.vocabulary)

    def scores(self, embedding: Sequence[float] | np.ndarray, text: str = "") -> dict[str, float]:
        """Each label's probability for one unit-length embedding and (with a vocabulary) the text embedded."""
        features = np.asarray(embedding, dtype=np.float64)
        if self.vocabulary:
            features = np.concatenate([features, word_features([text], self.vocabulary, self.word_scale)[0]])
        logits = self.weights @ features + self.bias
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return {label: float(v) for label, v in zip(self.labels, p, strict=True)}

    def as_dict(self) -> dict[str, object]:
        words = {"vocabulary": list(self.vocabulary), "word_scale": self.word_scale} if self.vocabulary else {}
        return {"labels": list(self.labels), "weights": [[round(float(w), 6) for w in row] for row in self.weights],
                "bias": [round(float(b), 6) for b in self.bias], **words}

    def to_json(self) -> str:
        return json.dumps({"model": self.name, **self.as_dict()}, separators=(",", ":"))


def fit(embeddings: np.ndarray, labels: Sequence[str], name: str, c: float = C,
        balanced: bool = False, texts: Sequence[str] = (), word_scale: float = 0.0,
        min_lines: int = 2) -> Classifier:
    """A multinomial logistic regression on the rows (deterministic: lbfgs from zero); `balanced`
    weighs each label's rows by the inverse of its count (a rare label counts as much as a common one).
    With `texts` (the text embedded, per row) and a `word_scale`, it also reads their words and word
    pairs, those found in at least `min_lines` of the texts (`word_features`)."""
    from sklearn.linear_model import LogisticRegression

    if len(set(labels)) < 2:
        raise ValueError("a classifier needs at least two labels among its rows")
    if texts and len(texts) != len(labels):
        raise ValueError("a text for each row, or none")
    vocabulary = vocabulary_of(texts, min_lines) if texts and word_scale > 0 else ()
    rows = np.asarray(embeddings, dtype=np.float64)
    if vocabulary:
        rows = np.hstack([rows, word_features(texts, vocabulary, word_scale)])
    weighing = "balanced" if balanced else None
    model = LogisticRegression(C=c, max_iter=5000, class_weight=weighing).fit(rows, list(labels))
    weights, bias = model.coef_.astype(np.float64), model.intercept_.astype(np.float64)
    if len(model.classes_) == 2:  # scikit-learn keeps one row for two labels: the softmax wants both
        weights, bias = np.vstack([-weights / 2, weights / 2]), np.array([-bias[0] / 2, bias[0] / 2])
    return Classifier(name=name, labels=tuple(str(x) for x in model.classes_), weights=weights, bias=bias,
                      vocabulary=vocabulary, word_scale=word_scale if vocabulary else 0.0)


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
                             bias=np.asarray(c["bias"], dtype=np.float64),
                             vocabulary=tuple(c.get("vocabulary", ())), word_scale=float(c.get("word_scale", 0.0)))
            for head, c in data["classifiers"].items()}


def for_model(path: Path, name: str, dimensions: int) -> Mapping[str, Classifier]:
    """The shipped classifiers when they were fitted on this embedding model, else {} (the rules alone)."""
    found = load(path)
    return found if all(c.name == name and c.dimensions == dimensions for c in found.values()) else {}


def same(a: Mapping[str, Classifier], b: Mapping[str, Classifier], tolerance: float = 1e-4) -> bool:
    """Whether two sets of classifiers are the same up to the rounding of a shipped file."""
    def close(x: Classifier, y: Classifier) -> bool:
        return (x.labels == y.labels and x.name == y.name and x.vocabulary == y.vocabulary
                and x.word_scale == y.word_scale and x.weights.shape == y.weights.shape
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
