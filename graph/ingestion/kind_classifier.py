"""A second opinion on the kind of a memory with no claim: graph/language/classifier.py's logistic
regression over the sentence's embedding, one label per claimless kind (procedure, decision, goal,
event, preference, fact) and `none` for a sentence that is no memory. Fitted offline,
deterministically, on the tuning half of the labelled utterances only (bench/fit_ingest_kinds.py
writes kinds.json beside this file). Asked only where no wording or parse rule gives a claimless
sentence a kind, and heeded only at FLOOR or above (bench/ingestion_folds.py chose it)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from graph.ingestion.extractor import KindOf
from graph.language import classifier
from graph.language.classifier import Classifier

SHIPPED = Path(__file__).with_name("kinds.json")
HEAD = "kind"
NONE = "none"  # the label of a sentence that is no memory
FLOOR = 0.5  # the probability below which the classifier's kind is not taken


def for_model(name: str, dimensions: int) -> Classifier | None:
    """The shipped model when it was fitted on this embedding model, else None (the rules alone)."""
    return classifier.for_model(SHIPPED, name, dimensions).get(HEAD)


def shipped() -> Classifier | None:
    return classifier.load(SHIPPED).get(HEAD)


def second_opinion(head: Classifier, embedding_of: Callable[[str], Sequence[float] | np.ndarray],
                   floor: float = FLOOR) -> KindOf:
    """The extractor's `kind_of`: the rules' kind where they found one, else the classifier's when it
    is at least `floor` probable and not `none`."""
    def kind_of(sentence: str, ruled: str | None) -> str | None:
        if ruled is not None:
            return ruled
        scores = head.scores(embedding_of(sentence))
        best = max(scores, key=lambda k: (scores[k], k))
        return None if best == NONE or scores[best] < floor else best
    return kind_of
