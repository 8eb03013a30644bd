"""Deterministic precedence: user correction, trust, recency; then policy and on_conflict."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph.beliefs.precedence import Contender, decide, wins

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def belief(memory_id: str, source: str, trust: float, days_ago: float = 0) -> Contender:
    return Contender(memory_id, source, trust, NOW - timedelta(days=days_ago))


def test_higher_trust_wins_and_lower_trust_loses():
    assert wins(belief("n", "user_explicit", 1.0), belief("o", "document", 0.6, 3)) == (True, "user_correction")
    assert wins(belief("n", "tool_output", 0.85), belief("o", "document", 0.6, 3)) == (True, "higher_trust")
    assert wins(belief("n", "document", 0.6), belief("o", "user_explicit", 1.0, 3)) == (False, "trust_insufficient")


def test_equal_trust_goes_to_the_newer_claim():
    assert wins(belief("n", "document", 0.6), belief("o", "document", 0.6, 1)) == (True, "equal_trust_newer")
    assert wins(belief("n", "document", 0.6, 2), belief("o", "document", 0.6, 1)) == (False, "equal_trust_older")


def test_a_user_correction_beats_a_more_trusted_non_user_source_but_not_a_user_one():
    corrected = belief("n", "user_explicit", 0.9)  # an old correction, aged
    assert wins(corrected, belief("o", "system", 1.0, 1)) == (True, "user_correction")
    assert wins(corrected, belief("o", "user_implicit", 0.95, 1)) == (False, "trust_insufficient")


def test_supersede_policy_replaces_only_when_the_new_belief_beats_every_contender():
    new = belief("n", "tool_output", 0.85)
    verdict = decide(new, [belief("a", "document", 0.6, 1), belief("b", "inference", 0.5, 2)],
                     policy="supersede", on_conflict="quarantine")
    assert verdict.status == "active" and [c.memory_id for c in verdict.supersede] == ["a", "b"]
    assert (verdict.conflict_status, verdict.resolution) == ("resolved", "supersede")

    verdict = decide(new, [belief("a", "document", 0.6, 1), belief("b", "system", 0.95, 2)],
                     policy="supersede", on_conflict="quarantine")
    assert verdict.status == "quarantined" and verdict.supersede == ()
    assert verdict.quarantine_reason == "trust_insufficient" and verdict.conflict_status == "pending"
    assert [c.new_wins for c in verdict.clashes] == [True, False]


def test_require_review_always_quarantines_and_keep_both_keeps_both():
    new, old = belief("n", "user_explicit", 1.0), belief("o", "inference", 0.5, 1)
    review = decide(new, [old], policy="require_review", on_conflict="quarantine")
    assert (review.status, review.quarantine_reason, review.conflict_status) == \
        ("quarantined", "predicate_requires_review", "pending")
    both = decide(new, [old], policy="keep_both", on_conflict="quarantine")
    assert (both.status, both.supersede, both.conflict_status, both.resolution) == \
        ("active", (), "resolved", "keep_both")


def test_keep_active_leaves_the_loser_visible_but_records_the_conflict():
    verdict = decide(belief("n", "document", 0.6), [belief("o", "user_explicit", 1.0, 1)],
                     policy="supersede", on_conflict="keep_active")
    assert (verdict.status, verdict.supersede, verdict.conflict_status) == ("active", (), "pending")
    assert len(verdict.clashes) == 1


def test_no_contenders_means_no_conflict():
    verdict = decide(belief("n", "inference", 0.5), [], policy="supersede", on_conflict="quarantine")
    assert (verdict.status, verdict.clashes, verdict.supersede) == ("active", (), ())
