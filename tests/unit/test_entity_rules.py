"""The entity graph's pure rules: name keys, the predicate -> relationship table, strength."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.core.keys import entity_key, name_key, relation_key
from graph.entities.rules import rule_for, subject_kind
from graph.entities.strength import Evidence, corroboration, recency, standing, strength

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def ev(i: int, trust: float = 0.8, status: str = "active", start: datetime = T0, end: datetime | None = None,
       created: datetime = T0) -> Evidence:
    return Evidence(f"m{i}", status, trust, created, start, end)


def test_name_keys_ignore_case_and_spaces_and_carry_the_tenant():
    assert name_key("  ACME   Corp ") == name_key("acme corp") == "acme corp"
    assert entity_key("a1", "Acme") != entity_key("a2", "Acme")


def test_predicates_map_to_relationship_types_in_one_table():
    assert rule_for("employer").type == rule_for("Works-For").type == "works_at"
    assert rule_for("lives in").type == "lives_in"
    assert rule_for("manager").reverse and not rule_for("manages").reverse
    assert rule_for("favourite_colour") is None
    assert subject_kind("user", rule_for("headquarters")) == "person"
    assert subject_kind("Acme", rule_for("headquarters")) == "organisation"
    assert relation_key("knows", "a x", "a y") != relation_key("knows", "a y", "a x")


def test_strength_is_trust_times_corroboration_times_recency():
    assert corroboration(1) == 0.5 and corroboration(3) == 0.875
    assert recency(T0, T0 + timedelta(days=180)) == pytest.approx(0.5)
    assert recency(T0 + timedelta(days=5), T0) == 1.0, "a mention after the instant asked about is not in the future"
    assert strength(2, 0.8, T0, T0) == pytest.approx(0.6)
    assert strength(0, 0.8, T0, T0) == 0.0
    assert strength(1, 0.9, T0, T0) > strength(1, 0.9, T0, T0 + timedelta(days=30)) > \
        strength(1, 0.9, T0, T0 + timedelta(days=400))
    assert strength(3, 0.5, T0, T0) > strength(1, 0.5, T0, T0)


def test_standing_spans_its_evidence_and_quarantined_memories_do_not_count():
    closed = T0 + timedelta(days=10)
    s = standing([ev(1, end=closed), ev(2, status="quarantined", trust=0.1)], T0 + timedelta(days=5))
    assert (s.mentions, s.trust, s.current, s.valid_until) == (1, 0.8, True, closed)
    later = standing([ev(1, end=closed)], closed)
    assert not later.current and later.valid_until == closed, "the end is exclusive"
    open_ended = standing([ev(1, end=closed), ev(2, start=closed)], closed + timedelta(days=1))
    assert open_ended.valid_until is None and open_ended.current and open_ended.mentions == 2
    assert standing([], T0).mentions == 0
