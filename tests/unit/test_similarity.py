from __future__ import annotations

import numpy as np

from graph.similarity import first_k, index_score_to_cosine, next_k, top_k_cosine


def test_top_k_cosine_ranks_exactly_and_breaks_ties_by_id():
    query = np.array([1.0, 0.0])
    vectors = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [1.0, 1.0], [-1.0, 0.0]])
    ranked = top_k_cosine(query, ["d", "b", "a", "c", "e"], vectors, 3)
    assert [i for i, _ in ranked] == ["a", "b", "c"]  # a and b tie at 1.0; a first
    assert np.isclose(ranked[2][1], np.sqrt(0.5))
    assert top_k_cosine(query, [], np.zeros((0, 2)), 3) == []
    assert len(top_k_cosine(query, ["d", "b"], vectors[:2], 10)) == 2


def test_zero_vectors_do_not_divide_by_zero():
    ranked = top_k_cosine(np.array([1.0, 0.0]), ["z", "x"], np.array([[0.0, 0.0], [1.0, 0.0]]), 2)
    assert ranked == [("x", 1.0), ("z", 0.0)]


def test_index_score_maps_back_to_cosine():
    assert index_score_to_cosine(1.0) == 1.0
    assert index_score_to_cosine(0.5) == 0.0
    assert index_score_to_cosine(0.0) == -1.0


def test_first_k_scales_with_the_tenants_share_of_the_index():
    assert first_k(10, 10_000, 10_000) == 20            # the whole index is the tenant's
    assert first_k(10, 1_000, 10_000) == 200            # a tenth: ask for ten times more, twice over
    assert first_k(10, 1, 1_000_000) == 1_000_000       # capped by what the index holds
    assert first_k(10, 0, 100) == 0
    assert next_k(200, 500) == 500 and next_k(50, 10_000) == 200
