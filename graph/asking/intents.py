"""The router's intent classifier: graph/language/classifier.py's logistic regression over the
question's embedding and the words and word pairs of the masked question, one label per intent.
Fitted offline, deterministically, on the tuning half of the labelled questions only
(bench/fit_intents.py writes intents.json beside this file); the router asks it only when no rule
decides (graph/asking/blend.py)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from graph.language import classifier
from graph.language.classifier import Classifier

SHIPPED = Path(__file__).with_name("intents.json")
HEAD = "intent"
C = classifier.C  # inverse regularisation (bench/routing_folds.py chose it)
# The words beside the embedding: those in at least two tuning questions, as a vector of length
# WORD_SCALE (the embedding's is 1). On held-out folds 0.5 lifted the blend, 2.0 lowered it: the words
# sharpen the few markers the embedding blurs without outvoting what the phrasing means
# (bench/routing_folds.py; docs/asking.md).
WORD_SCALE = 0.5
WORD_MIN_LINES = 2


def fit(embeddings: np.ndarray, labels: Sequence[str], name: str, texts: Sequence[str]) -> Classifier:
    """Fitted on each question's embedding and the masked text embedded (blend.for_classifier)."""
    return classifier.fit(embeddings, labels, name, C, texts=texts, word_scale=WORD_SCALE,
                          min_lines=WORD_MIN_LINES)


def for_model(name: str, dimensions: int) -> Classifier | None:
    """The shipped model when it was fitted on this embedding model, else None (the rules alone)."""
    return classifier.for_model(SHIPPED, name, dimensions).get(HEAD)


def shipped() -> Classifier | None:
    """The model fitted on the tuning half, or None when the file is absent."""
    return classifier.load(SHIPPED).get(HEAD)


def label(intent: str, also: Sequence[str]) -> str:
    """What the classifier learns a labelled question as: an exclusion as the intent it wraps, anything
    else as itself. It never picks `negation` (blend.py: the rules find exclusions), so a `negation` label
    only took probability from the intent the question asks for (bench/routing_folds.py measured it)."""
    return also[0] if intent == "negation" and also else intent
