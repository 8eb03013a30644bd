"""The trust formula of docs/beliefs.md, exactly, with its terms kept apart so
explain can show each one. Confidence equals trust: the reranker weighs it on its own."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from graph.core.timeutil import from_graph_required
from graph.core.vocab import DEFAULT_SOURCE, SOURCE_TYPES

SOURCE_WEIGHTS: dict[str, float] = {
    "user_explicit": 1.0,
    "system": 0.95,
    "tool_output": 0.85,
    "user_implicit": 0.7,
    "document": 0.6,
    "inference": 0.5,
}
assert tuple(SOURCE_WEIGHTS) == SOURCE_TYPES, "every source type has a weight, in the vocabulary's order"
UNKNOWN_SOURCE_WEIGHT = 0.5
DISPUTED_BELOW = 0.3  # a dispute that drives trust below this marks the memory disputed


@dataclass(frozen=True)
class TrustBreakdown:
    source_base: float
    corroboration_bonus: float
    feedback_signal: float
    recency_penalty: float
    trust: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def compute_trust(source: str, corroboration: int = 1, reinforcements: int = 0, disputes: int = 0,
                  age_days: float = 0.0) -> TrustBreakdown:
    source_base = SOURCE_WEIGHTS.get(source, UNKNOWN_SOURCE_WEIGHT)
    corroboration_bonus = min(0.2, (max(corroboration, 1) - 1) * 0.05)
    feedback = reinforcements + disputes
    feedback_signal = (reinforcements - disputes) / feedback * 0.15 if feedback > 0 else 0.0
    recency_penalty = max(0.0, min(0.1, age_days / 365 * 0.1))
    trust = max(0.0, min(1.0, source_base + corroboration_bonus + feedback_signal - recency_penalty))
    # Four decimals, as trust is reported everywhere; it also keeps "equal
    # trust" meaningful when a belief is milliseconds older than its rival.
    return TrustBreakdown(source_base, corroboration_bonus, feedback_signal, recency_penalty, round(trust, 4))


def age_days(created_at: datetime, now: datetime) -> float:
    return max(0.0, (now - created_at).total_seconds() / 86_400)


def trust_now(row: dict[str, Any], now: datetime) -> float:
    """Trust from a belief's stored terms at this moment (its recency penalty grows with age)."""
    return compute_trust(row["source_type"] or DEFAULT_SOURCE, row["corroboration"] or 1, row["reinforcements"] or 0,
                         row["disputes"] or 0, age_days(from_graph_required(row["created_at"]), now)).trust
