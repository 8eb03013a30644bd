"""Token estimates for context budgets. The default is characters / 4, rounded up; the
embedding model's tokenizer is the option for callers who want counts closer to a real model's."""
from __future__ import annotations

import math
from collections.abc import Callable

from graph.core.errors import StartupError

TokenEstimator = Callable[[str], int]


def chars_per_four(text: str) -> int:
    return math.ceil(len(text) / 4)


def estimator_for(kind: str, embedder: object) -> TokenEstimator:
    if kind == "chars":
        return chars_per_four
    count = getattr(embedder, "count_tokens", None)
    if count is None:
        raise StartupError(f"CREDENCE_TOKEN_ESTIMATOR=model needs an embedding model with a tokenizer; "
                           f"{type(embedder).__name__} has none")
    return count
