"""Explain counts for one search: how many candidates each filter removed. Pure.

`candidates` are this agent's memories the retrievers reached (other tenants' index hits are
never seen here, so explain reveals nothing about them). The retrievers hand over only the best
few hundred memories that pass the filters, so `below_min_similarity` is counted within that
ranking pool."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from graph.core.vocab import ACTIVE, ARCHIVED, DISPUTED, QUARANTINED, STATUSES, SUPERSEDED

FILTER_REASONS = ("scope_mismatch", "validity_mismatch", "not_yet_effective", "expired", "above_sensitivity",
                  "excluded", "filtered")


def funnel(reasons: Mapping[str, str | None], hidden_statuses: Mapping[str, int], unseen_kept: int,
           below_min_similarity: int, returned: int) -> tuple[dict[str, int], dict[str, int]]:
    """reasons: id -> why a memory was not shown (None: it passed the filters), for every memory
    the retrievers listed. hidden_statuses: memories hidden by status that were counted but not
    listed; unseen_kept: memories that passed but were not listed (beyond the pool)."""
    why = Counter(r for r in reasons.values() if r is not None)
    for status, n in hidden_statuses.items():
        why[status] += n
    by_status = sum(why[s] for s in STATUSES)
    by_filter = sum(why[r] for r in FILTER_REASONS)
    candidates = len(reasons) + sum(hidden_statuses.values()) + unseen_kept
    after_status = candidates - by_status
    counts = {"candidates": candidates, "after_agent_filter": candidates, "after_status_filter": after_status,
              "after_similarity": after_status - by_filter - below_min_similarity, "returned": returned}
    excluded = {SUPERSEDED: why[SUPERSEDED], DISPUTED: why[DISPUTED], QUARANTINED: why[QUARANTINED],
                ARCHIVED: why[ARCHIVED], "below_min_similarity": below_min_similarity,
                **{reason: why[reason] for reason in FILTER_REASONS}}
    if why[ACTIVE]:
        excluded[ACTIVE] = why[ACTIVE]  # a status filter that leaves active memories out
    return counts, excluded
