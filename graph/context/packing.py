"""Budget-aware context assembly (docs/retrieval.md, Context): greedy knapsack by value density.

Value is the composite score above the pool's lowest one. The composite has a floor that does
not depend on the query (confidence, recency and importance give an off-topic memory about 0.5),
so dividing the raw score by tokens ranks memories mostly by shortness: at tight budgets short
off-topic memories then displaced the answer, and packing did worse than plain top-K. Measuring
value from the floor keeps the density order where scores differ and fixes that
(docs/benchmarks.md).

Memories of the present are weighed before any of the past, so a historical one only takes room a
current one could not use; with per-type quotas, the lines of one memory type stay within its
quota (in the same tokens as the budget).

The guarantee: the token estimate of the returned context, headers included, is at most
max_tokens. It holds by construction: a memory is kept only if the whole formatted context still
fits after adding it. Greedy is not optimal, and need not be: the budget is the guarantee."""
from __future__ import annotations

from dataclasses import dataclass

from graph.context.format import ContextItem, format_context
from graph.context.tokens import TokenEstimator, chars_per_four


@dataclass(frozen=True)
class Excluded:
    id: str
    reason: str  # budget
    value: float


@dataclass(frozen=True)
class Packed:
    context: str
    token_estimate: int
    included: list[ContextItem]
    excluded: list[Excluded]


def pack(items: list[ContextItem], max_tokens: int, estimate: TokenEstimator = chars_per_four,
         quotas: dict[str, int] | None = None) -> Packed:
    floor = min((i.value for i in items), default=0.0)
    quotas = quotas or {}
    used: dict[str, int] = {}

    def density(item: ContextItem) -> float:
        return (item.value - floor) / max(1, estimate(item.text))

    chosen: list[ContextItem] = []
    excluded: list[Excluded] = []
    for item in sorted(items, key=lambda i: (i.historical or i.past, -density(i), -i.value, i.id)):
        cost = estimate(item.text)
        quota = quotas.get(item.memory_type)
        within_quota = quota is None or used.get(item.memory_type, 0) + cost <= quota
        if within_quota and estimate(format_context([*chosen, item])) <= max_tokens:
            chosen.append(item)
            used[item.memory_type] = used.get(item.memory_type, 0) + cost
        else:
            excluded.append(Excluded(item.id, "budget", item.value))
    context = format_context(chosen)
    return Packed(context, estimate(context), chosen, excluded)


def top(items: list[ContextItem], max_memories: int, estimate: TokenEstimator = chars_per_four,
        quotas: dict[str, int] | None = None) -> Packed:
    """Without a budget: the best max_memories by value (the present before the past), each memory
    type within its quota when one is set."""
    quotas = quotas or {}
    used: dict[str, int] = {}
    chosen: list[ContextItem] = []
    for item in sorted(items, key=lambda i: (i.historical or i.past, -i.value, i.id)):
        cost = estimate(item.text)
        if len(chosen) < max_memories and (item.memory_type not in quotas
                                           or used.get(item.memory_type, 0) + cost <= quotas[item.memory_type]):
            chosen.append(item)
            used[item.memory_type] = used.get(item.memory_type, 0) + cost
    context = format_context(chosen)
    return Packed(context, estimate(context), chosen, [])
