"""The classifier of claimless kinds (graph/ingestion/kind_classifier.py): the shipped file, and the
rule extractor asking it only where no rule gives a claimless sentence a kind."""
from __future__ import annotations

from datetime import UTC, datetime

import anyio
import numpy as np

from graph.ingestion import kind_classifier
from graph.ingestion.model import Message
from graph.ingestion.steps import RuleExtractor
from graph.language.classifier import Classifier

AT = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
KINDS = {"procedure", "decision", "goal", "event", "preference", "fact", kind_classifier.NONE}


def test_the_shipped_classifier_matches_the_service_model_only():
    model = kind_classifier.shipped()
    assert model is not None and set(model.labels) == KINDS and model.dimensions == 384
    assert kind_classifier.for_model(model.name, 384) is model
    assert kind_classifier.for_model("another-model", 384) is None
    assert kind_classifier.for_model(model.name, 768) is None


def _always(label: str, p: float) -> Classifier:
    """A two-label head that gives `label` probability `p` whatever the embedding."""
    logit = float(np.log(p / (1 - p)))
    other = "fact" if label == kind_classifier.NONE else kind_classifier.NONE
    return Classifier("m", (label, other), np.zeros((2, 4)), np.array([logit, 0.0]))


def _extract(text: str, head: Classifier | None) -> tuple[list[str], list[str]]:
    asked: list[str] = []

    async def embed(sentence: str) -> list[float]:
        asked.append(sentence)
        return [0.5, 0.5, 0.5, 0.5]

    async def run() -> list[str]:
        extractor = RuleExtractor(head, embed)
        prepared = await extractor.prepare([Message("user", text, AT)])
        found = await extractor.extract(Message("user", text, AT), [], set(), {}, prepared)
        return [c.memory_type for c in found.candidates]

    return anyio.run(run), asked


def test_the_classifier_decides_only_where_the_rules_are_unsure():
    unsure = "Feeling it in my knees after the long run."  # no rule gives it a kind
    assert _extract(unsure, None) == ([], [])
    # Confident: its kind; one embedding, of that sentence only.
    assert _extract(unsure, _always("fact", 0.9)) == (["fact"], [unsure])
    # Below the floor, or `none`: nothing, as the rules alone.
    assert _extract(unsure, _always("fact", kind_classifier.FLOOR - 0.1))[0] == []
    assert _extract(unsure, _always(kind_classifier.NONE, 0.9))[0] == []
    # A claim, or a kind a rule gives, is not asked about and costs no embedding.
    assert _extract("I live in Berlin.", _always("goal", 0.9)) == (["fact"], [])
    assert _extract("We decided to go with the blue sofa.", _always("goal", 0.9)) == (["decision"], [])
