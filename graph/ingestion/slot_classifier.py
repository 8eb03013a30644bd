"""A second opinion on the slot a sentence fills when no frame or pattern read a claim from it:
graph/language/classifier.py's logistic regression over the sentence's embedding, one label per
predicate of the vocabulary the tuning lines hold, `open` for a thing the user owns or uses (an
open slot), and `none` for a sentence that states no claim. Fitted offline, deterministically, on
the tuning half of the labelled utterances only (bench/fit_ingest_slots.py writes slots.json beside
this file). Its label is heeded at FLOOR or above; the value is the parse's (proposed.py), so a
phrasing no rule was written for still yields a claim the decision can add, corroborate or let
supersede its predecessor."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from graph.language import classifier
from graph.language.classifier import Classifier

SHIPPED = Path(__file__).with_name("slots.json")
HEAD = "slot"
NONE = "none"  # the label of a sentence that states no claim
FLOOR = 0.5  # the probability below which the classifier's slot is not taken
# A slot the sentence fills, or None: the extractor's `slot_of(sentence)`.
SlotOf = Callable[[str], str | None]


def for_model(name: str, dimensions: int) -> Classifier | None:
    """The shipped model when it was fitted on this embedding model, else None (the rules alone)."""
    return classifier.for_model(SHIPPED, name, dimensions).get(HEAD)


def shipped() -> Classifier | None:
    return classifier.load(SHIPPED).get(HEAD)


def slot_opinion(head: Classifier, embedding_of: Callable[[str], Sequence[float] | np.ndarray],
                 floor: float = FLOOR, otherwise: str | None = None) -> SlotOf:
    """The extractor's `slot_of`: the classifier's slot for a sentence when it is at least `floor`
    probable and not `none`; else `otherwise` unless `none` is at least `floor` probable."""
    def slot_of(sentence: str) -> str | None:
        scores = head.scores(embedding_of(sentence))
        best = max(scores, key=lambda k: (scores[k], k))
        if scores[best] >= floor:
            return None if best == NONE else best
        return otherwise
    return slot_of
