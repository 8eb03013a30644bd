"""The queue's and maintenance's pure rules: backoff, the job request's checks, the decay formula,
schedule periods, the job key and the cron setting."""
from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from graph.core.errors import InvalidInput
from graph.core.keys import job_key
from graph.jobs import SYSTEM_AGENT, NewJob
from graph.jobs.rules import backoff, check_new_job, error_text
from graph.maintenance.decay_rules import DecayPolicy, half_life, last_active, weigh
from graph.maintenance.scheduler import latest_period
from graph.maintenance.service import schedules
from graph.settings import Settings

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
KINDS = ("expire", "decay")


def test_backoff_doubles_from_the_base_up_to_the_cap_with_bounded_jitter():
    rng = random.Random(7)
    for attempts, expected in [(1, 30), (2, 60), (3, 120), (4, 240), (10, 3600)]:
        waits = [backoff(attempts, 30, 3600, rng) for _ in range(200)]
        assert all(expected * 0.9 <= w <= expected * 1.1 for w in waits), attempts
        assert max(waits) - min(waits) > expected * 0.1  # the jitter spreads them
    assert backoff(3, 0, 0) == 0


def test_a_job_request_is_checked_field_by_field():
    ok = check_new_job(NewJob(agent="a1", kind="expire", depends_on=("0B6E4A31-2F0B-4D6E-9C1E-6F1C3B2A7D4E",) * 2),
                       KINDS)
    assert ok.depends_on == ("0b6e4a31-2f0b-4d6e-9c1e-6f1c3b2a7d4e",)  # canonical, repeats dropped
    assert check_new_job(NewJob(agent=SYSTEM_AGENT, kind="decay"), KINDS).agent == SYSTEM_AGENT
    bad = [(NewJob(agent="_other", kind="expire"), "agent"), (NewJob(agent="a1", kind="prune"), "kind"),
           (NewJob(agent="a1", kind="expire", priority=0), "priority"),
           (NewJob(agent="a1", kind="expire", priority=True), "priority"),
           (NewJob(agent="a1", kind="expire", params={"x": math.nan}), "params.x"),
           (NewJob(agent="a1", kind="expire", params={"x": "y" * 70_000}), "params"),
           (NewJob(agent="a1", kind="expire", key=""), "key"),
           (NewJob(agent="a1", kind="expire", key="k" * 201), "key"),
           (NewJob(agent="a1", kind="expire", max_attempts=101), "max_attempts"),
           (NewJob(agent="a1", kind="expire", depends_on=("x",)), "depends_on[0]"),
           (NewJob(agent="a1", kind="expire", depends_on=tuple(f"{i:032x}" for i in range(101))), "depends_on"),
           (NewJob(agent="a1", kind="expire", run_at="tomorrow"), "run_at")]  # type: ignore[arg-type]
    for job, field in bad:
        with pytest.raises(InvalidInput) as caught:
            check_new_job(job, KINDS)
        assert caught.value.field == field, job


def test_a_job_keeps_a_bounded_error_text():
    assert error_text(ValueError("bad")) == "ValueError: bad"
    assert len(error_text(RuntimeError("x" * 10_000))) == 4_000


def test_job_keys_of_tenants_and_of_keyless_jobs_never_meet():
    assert job_key("a", "k", "id-1") == job_key("a", "k", "id-2")  # the key decides, not the id
    assert job_key("a", "k", "id-1") != job_key("b", "k", "id-1")
    assert job_key("a", None, "k") != job_key("a", "k", "k")


def test_the_decay_formula():
    policy = DecayPolicy(half_life_days=90, floor=0.1, min_idle_days=30, exempt_importance=0.9)
    since = NOW - timedelta(days=90)
    assert weigh(policy, 0.8, since, NOW).decayed == pytest.approx(0.4)  # one half-life: half
    assert weigh(policy, 0.8, NOW - timedelta(days=180), NOW).decayed == pytest.approx(0.2)
    # Uses lengthen the half-life logarithmically, reinforcements linearly.
    assert half_life(policy, 0, 0) == 90 and half_life(policy, math.e - 1, 0) == pytest.approx(180)
    assert half_life(policy, 0, 2) == 270
    assert weigh(policy, 0.5, NOW - timedelta(days=400), NOW).archive
    assert not weigh(policy, 0.5, NOW - timedelta(days=400), NOW, access_count=50).archive
    assert not weigh(policy, 0.5, NOW - timedelta(days=400), NOW, reinforcements=5).archive
    assert not weigh(policy, 0.95, NOW - timedelta(days=4000), NOW).archive  # exempt
    assert not weigh(policy, 0.01, NOW - timedelta(days=29), NOW).archive  # not idle long enough
    assert weigh(policy, 0.05, NOW - timedelta(days=30), NOW).archive  # below the floor once idle enough
    assert weigh(policy, 0.5, NOW + timedelta(days=1), NOW).idle_days == 0  # a clock skew is no negative idle
    # The latest of stored, changed and used counts.
    assert last_active(since, None, None) == since
    assert last_active(since, since + timedelta(days=1), since + timedelta(days=2)) == since + timedelta(days=2)


def test_a_schedule_s_period_is_its_latest_fire_time():
    assert latest_period("0 3 * * *", NOW) == datetime(2026, 6, 1, 3, 0, tzinfo=UTC)
    before_three = datetime(2026, 6, 1, 2, 59, tzinfo=UTC)
    assert latest_period("0 3 * * *", before_three) == datetime(2026, 5, 31, 3, 0, tzinfo=UTC)
    assert latest_period("0 4 * * 0", NOW) == datetime(2026, 5, 31, 4, 0, tzinfo=UTC)  # a Sunday
    assert latest_period("* * * * *", NOW + timedelta(seconds=30)) == NOW


def test_schedules_are_cron_expressions_or_empty():
    assert Settings(neo4j_uri=None, schedule_decay=" ").schedule_decay == ""
    with pytest.raises(ValidationError, match="schedule_expire"):
        Settings(neo4j_uri=None, schedule_expire="every day")
    with pytest.raises(ValidationError, match="schedule_stem"):
        Settings(neo4j_uri=None, schedule_stem="hourly")


def test_memories_without_stems_are_stemmed_hourly_unless_the_schedule_is_off():
    assert {(s.kind, s.cron) for s in schedules(Settings(neo4j_uri=None))} == {
        ("expire", "0 3 * * *"), ("decay", "0 4 * * 0"), ("stem", "20 * * * *")}
    assert [s.kind for s in schedules(Settings(neo4j_uri=None, schedule_stem=""))] == ["expire", "decay"]
