"""The lift a conversation turn takes from the hits beside it (graph/retrieval/neighbours.py)."""
from __future__ import annotations

from graph.retrieval.neighbours import Reached, lifts


def test_lifts_keep_the_best_hit_beside_each_turn():
    reached = [Reached("a", "x", 1), Reached("b", "x", 2), Reached("b", "y", 1), Reached("z", "y", 1),
               Reached("a", "b", 1)]
    out = lifts(reached, {"a": 0.8, "b": 0.85}, 0.9)
    assert out["x"].beside == "a" and abs(out["x"].relevance - 0.72) < 1e-9  # b two steps away: 0.6885
    assert out["y"].beside == "b" and abs(out["y"].relevance - 0.765) < 1e-9  # z is no hit
    assert abs(out["b"].relevance - 0.72) < 1e-9  # a hit reached by another is lifted too (the caller keeps its own)
    assert lifts(reached, {}, 0.9) == {}
