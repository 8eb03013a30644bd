"""Token estimators: the PRD's characters / 4, and the embedding model's tokenizer as an option."""
from __future__ import annotations

import pytest

from graph.context.format import ContextItem
from graph.context.packing import pack
from graph.context.tokens import chars_per_four, estimator_for
from graph.core.errors import StartupError


def test_chars_per_four_rounds_up_as_the_prd():
    assert chars_per_four("hello world") == 3 and chars_per_four("") == 0 and chars_per_four("abcd") == 1


def test_the_model_tokenizer_counts_real_tokens(embedder):
    count = estimator_for("model", embedder)
    assert count("hello world") == 2
    assert count("INV-4471 costs €1,234.56") > chars_per_four("INV-4471 costs €1,234.56") / 2
    assert estimator_for("chars", embedder) is chars_per_four


def test_the_model_estimator_needs_a_tokenizer():
    with pytest.raises(StartupError, match="tokenizer"):
        estimator_for("model", object())


def test_packing_keeps_its_guarantee_with_the_model_tokenizer(embedder):
    count = estimator_for("model", embedder)
    items = [ContextItem(id=f"m{i}", text=("Lisbon trip budget 900 euros " * (i + 1)), memory_type="fact",
                         value=1 / (i + 1)) for i in range(12)]
    for budget in (1, 20, 60, 150, 400):
        packed = pack(items, budget, count)
        assert packed.token_estimate == count(packed.context) <= budget
