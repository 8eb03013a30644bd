"""The light client's retry policy (credence_client/retry.py): when a 503 is tried again, and how long
the client waits first."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from credence_client.retry import Retry, retry_after_seconds


def test_retry_after_reads_seconds_and_http_dates():
    assert retry_after_seconds("5") == 5.0
    assert retry_after_seconds(" 0 ") == 0.0
    assert retry_after_seconds("-3") == 0.0
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=90), usegmt=True)
    assert 80 < retry_after_seconds(later) <= 90
    earlier = format_datetime(datetime.now(UTC) - timedelta(seconds=90), usegmt=True)
    assert retry_after_seconds(earlier) == 0.0
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None


def test_only_the_listed_statuses_are_retried_and_only_so_often():
    policy = Retry(attempts=3)
    assert policy.delay(1, 503, "2", waited=0) == 2.0
    assert policy.delay(2, 503, "2", waited=2) == 2.0
    assert policy.delay(3, 503, "2", waited=4) is None  # the third try was the last
    assert policy.delay(1, 500, "2", waited=0) is None
    assert policy.delay(1, 429, "2", waited=0) is None
    assert Retry(statuses=frozenset({429, 503})).delay(1, 429, "1", waited=0) == 1.0


def test_waits_are_capped_each_and_in_all():
    policy = Retry(attempts=10, max_wait=10, max_total=25)
    assert policy.delay(1, 503, "3600", waited=0) == 10  # a service asking for an hour gets max_wait
    assert policy.delay(3, 503, "10", waited=20) is None  # would pass max_total


def test_without_retry_after_the_backoff_doubles_with_jitter():
    policy = Retry(attempts=10, backoff=1.0, max_wait=100, max_total=1000)
    for attempt, ceiling in ((1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0)):
        wait = policy.delay(attempt, 503, None, waited=0)
        assert ceiling / 2 <= wait <= ceiling


def test_a_policy_that_cannot_try_is_refused():
    with pytest.raises(ValueError):
        Retry(attempts=0)
    with pytest.raises(ValueError):
        Retry(backoff=-1)
