"""Remembers, per tenant and filter, whether it was too large to rank exactly, so large tenants go
straight to the ANN index. Only a hint: a wrong one costs time, never correctness."""
from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Hashable


class TenantSizeHints:
    def __init__(self, ttl_seconds: float = 300.0, capacity: int = 10_000) -> None:
        self.ttl, self.capacity = ttl_seconds, capacity
        self._large: OrderedDict[Hashable, float] = OrderedDict()

    def is_large(self, key: Hashable) -> bool:
        expires = self._large.get(key)
        if expires is None:
            return False
        if expires < time.monotonic():
            del self._large[key]
            return False
        return True

    def mark(self, key: Hashable, large: bool) -> None:
        if not large:
            self._large.pop(key, None)
            return
        self._large[key] = time.monotonic() + self.ttl
        self._large.move_to_end(key)
        while len(self._large) > self.capacity:
            self._large.popitem(last=False)
