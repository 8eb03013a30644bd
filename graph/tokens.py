"""Token estimates for context budgets. The default is the PRD's characters / 4, rounded up."""
from __future__ import annotations

import math
from collections.abc import Callable

TokenEstimator = Callable[[str], int]


def chars_per_four(text: str) -> int:
    return math.ceil(len(text) / 4)
