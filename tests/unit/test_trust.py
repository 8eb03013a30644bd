"""The PRD's computeTrust, term by term."""
from __future__ import annotations

import pytest

from graph.beliefs.trust import SOURCE_WEIGHTS, compute_trust


@pytest.mark.parametrize("source, trust", list(SOURCE_WEIGHTS.items()))
def test_a_fresh_single_source_belief_has_its_source_weight(source, trust):
    assert compute_trust(source).trust == pytest.approx(trust)


def test_user_explicit_outranks_inference_and_unknown_sources_weigh_half():
    assert compute_trust("user_explicit").trust == 1.0
    assert compute_trust("inference").trust == 0.5
    assert compute_trust("rumour").trust == 0.5


def test_corroboration_adds_five_points_per_extra_source_up_to_twenty():
    assert [compute_trust("document", corroboration=n).corroboration_bonus for n in (1, 2, 3, 5, 9)] == \
        pytest.approx([0.0, 0.05, 0.10, 0.20, 0.20])
    assert compute_trust("document", corroboration=3).trust == pytest.approx(0.7)


def test_feedback_moves_trust_by_up_to_fifteen_points():
    assert compute_trust("inference", reinforcements=3).feedback_signal == pytest.approx(0.15)
    assert compute_trust("inference", disputes=1).trust == pytest.approx(0.35)
    assert compute_trust("inference", reinforcements=1, disputes=3).feedback_signal == pytest.approx(-0.075)
    assert compute_trust("inference", reinforcements=2, disputes=2).feedback_signal == 0.0


def test_age_costs_up_to_ten_points_over_a_year():
    assert compute_trust("system", age_days=182.5).recency_penalty == pytest.approx(0.05)
    assert compute_trust("system", age_days=3650).recency_penalty == pytest.approx(0.1)
    assert compute_trust("system", age_days=-5).recency_penalty == 0.0


def test_trust_is_clamped_to_zero_and_one():
    assert compute_trust("user_explicit", corroboration=5, reinforcements=4).trust == 1.0
    assert compute_trust("inference", disputes=10, age_days=1000).trust == pytest.approx(0.25)
    breakdown = compute_trust("document", corroboration=2, reinforcements=1, disputes=1, age_days=36.5)
    assert breakdown.trust == pytest.approx(0.6 + 0.05 + 0.0 - 0.01)
    assert set(breakdown.as_dict()) == {"source_base", "corroboration_bonus", "feedback_signal",
                                        "recency_penalty", "trust"}
