"""When to try a call again. The service answers 503 with `Retry-After` while its graph backend is
unreachable (api/problems.py); the client waits and retries, a bounded number of times, for a
bounded time. Every method is retried: a 503 means the service did not do the work."""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


def retry_after_seconds(value: str | None) -> float | None:
    """`Retry-After` as seconds: a number of seconds, or an HTTP date (RFC 9110); None if absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


@dataclass(frozen=True)
class Retry:
    """`attempts` tries in all (1: never retry). Without a Retry-After the waits grow from `backoff`
    seconds, doubling, with jitter so that many clients do not retry in step; no wait is longer than
    `max_wait`, whatever the service asks, and the waits of one call add up to `max_total` at most."""

    attempts: int = 4
    backoff: float = 0.5
    max_wait: float = 10.0
    max_total: float = 30.0
    statuses: frozenset[int] = frozenset({503})

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("attempts must be at least 1")
        if min(self.backoff, self.max_wait, self.max_total) < 0:
            raise ValueError("backoff, max_wait and max_total cannot be negative")

    def delay(self, attempt: int, status: int, retry_after: str | None, waited: float) -> float | None:
        """Seconds to wait before the next try after try number `attempt` (1-based) answered `status`,
        having waited `waited` seconds so far; None: give up and raise."""
        if status not in self.statuses or attempt >= self.attempts:
            return None
        asked = retry_after_seconds(retry_after)
        wait = asked if asked is not None else self.backoff * 2 ** (attempt - 1) * random.uniform(0.5, 1.0)
        wait = min(wait, self.max_wait)
        if waited + wait > self.max_total:
            return None
        return wait


NO_RETRY = Retry(attempts=1)
