"""Remembers, per tenant and filter, whether it was too large to rank exactly, so large tenants go
straight to the ANN index, what share of the index's hits were the tenant's own, so the first
request asks for about enough, and whether it was too large to search over its own memories alone
(candidates.py). Only a hint: a wrong one costs time, never correctness."""
from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass


@dataclass
class _Hint:
    expires: float
    share: float | None = None  # the tenant's share of the vector index's hits, smoothed
    beyond_own_list: bool = False  # too many memories to search over its own list (the global page instead)


class TenantSizeHints:
    def __init__(self, ttl_seconds: float = 300.0, capacity: int = 10_000) -> None:
        self.ttl, self.capacity = ttl_seconds, capacity
        self._large: OrderedDict[Hashable, _Hint] = OrderedDict()

    def is_large(self, key: Hashable) -> bool:
        return self._hint(key) is not None

    def mark(self, key: Hashable, large: bool) -> None:
        if not large:
            self._large.pop(key, None)
            return
        hint = self._large.get(key) or _Hint(expires=0.0)
        hint.expires = time.monotonic() + self.ttl
        self._large[key] = hint
        self._large.move_to_end(key)
        while len(self._large) > self.capacity:
            self._large.popitem(last=False)

    def share(self, key: Hashable) -> float | None:
        hint = self._hint(key)
        return hint.share if hint else None

    def observe_share(self, key: Hashable, share: float) -> None:
        """A full page of index hits, `share` of them the tenant's: averaged with what was seen before."""
        hint = self._hint(key)
        if hint is not None:
            hint.share = share if hint.share is None else (hint.share + share) / 2

    def beyond_own_list(self, key: Hashable) -> bool:
        hint = self._hint(key)
        return hint is not None and hint.beyond_own_list

    def mark_beyond_own_list(self, key: Hashable) -> None:
        hint = self._hint(key)
        if hint is not None:
            hint.beyond_own_list = True

    def _hint(self, key: Hashable) -> _Hint | None:
        hint = self._large.get(key)
        if hint is None:
            return None
        if hint.expires < time.monotonic():
            del self._large[key]
            return None
        return hint
