from __future__ import annotations

import pytest

from graph.core.errors import StartupError
from graph.retrieval.ann_widening import after_page, first_k, next_k, search_own_list
from graph.retrieval.cosine_scale import CosineScale, index_score_to_cosine
from graph.retrieval.tenant_hints import TenantSizeHints


@pytest.mark.parametrize("opposite, orthogonal, value, cosine", [
    (0.0, 0.5, 1.0, 1.0), (0.0, 0.5, 0.75, 0.5), (0.0, 0.5, 0.0, -1.0),    # Neo4j: (1 + cos) / 2
    (-1.0, 0.0, 1.0, 1.0), (-1.0, 0.0, 0.5, 0.5), (-1.0, 0.0, -1.0, -1.0),  # ArcadeDB: raw cosine
])
def test_cosine_scale_maps_either_convention_back_to_cosine(opposite, orthogonal, value, cosine):
    assert CosineScale(opposite, orthogonal).to_cosine(value) == pytest.approx(cosine)


def test_a_scale_that_does_not_increase_is_refused():
    with pytest.raises(StartupError):
        CosineScale(0.5, 0.5)


def test_index_score_maps_back_to_cosine():
    assert index_score_to_cosine(1.0) == 1.0
    assert index_score_to_cosine(0.5) == 0.0
    assert index_score_to_cosine(0.0) == -1.0


def test_k_starts_wide_enough_and_grows_within_bounds():
    assert first_k(10, 10_000) == 200
    assert first_k(1, 10_000) == 100
    assert first_k(100, 1_000) == 1_000
    assert next_k(200, 10_000, 10_000) == 800
    assert next_k(800, 1_500, 10_000) == 1_500
    assert next_k(4_000, 100_000, 10_000) == 10_000


def test_a_short_page_widens_by_the_share_it_showed():
    # 1,200 asked, 50 of the pool's 100 kept: 1,200 x 100 / 50 x 1.2 = 2,880, not four times 1,200.
    assert next_k(1_200, 10_000, 10_000, kept=50, pool=100) == 2_880
    assert next_k(1_200, 10_000, 10_000, kept=95, pool=100) == 1_800  # at least half as much again
    assert next_k(1_200, 10_000, 10_000, kept=0, pool=100) == 4_800  # nothing to go by: four times
    assert next_k(1_200, 10_000, 2_000, kept=50, pool=100) == 2_000  # within the most one request asks
    assert next_k(1_200, 1_300, 10_000, kept=50, pool=100) == 1_300  # never past the index


def test_tenant_hints_expire_and_stay_bounded(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr("graph.retrieval.tenant_hints.time.monotonic", lambda: clock[0])
    hints = TenantSizeHints(ttl_seconds=10, capacity=2)
    hints.mark("a", large=True)
    assert hints.is_large("a") and not hints.is_large("b")
    clock[0] = 111.0
    assert not hints.is_large("a")
    for key in ("x", "y", "z"):
        hints.mark(key, large=True)
    assert [hints.is_large(k) for k in ("x", "y", "z")] == [False, True, True]
    hints.mark("z", large=False)
    assert not hints.is_large("z")


def test_a_known_share_sizes_the_first_index_request():
    assert first_k(30, 10_000) == 600  # unknown: enough for a tenant holding a few percent
    assert first_k(30, 10_000, share=0.1) == 360  # a tenth of the hits: 300, and a fifth more
    assert first_k(30, 10_000, share=0.9) == 100 and first_k(30, 10_000, share=0.0001) == 10_000


def test_share_hints_average_full_pages_and_expire_with_the_large_mark(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr("graph.retrieval.tenant_hints.time.monotonic", lambda: clock[0])
    hints = TenantSizeHints(ttl_seconds=10)
    hints.observe_share("a", 0.5)
    assert hints.share("a") is None  # only large tenants go to the index
    hints.mark("a", large=True)
    hints.observe_share("a", 0.2)
    hints.observe_share("a", 0.1)
    assert hints.share("a") == pytest.approx(0.15)
    hints.mark("a", large=True)  # re-marking keeps what was learnt
    assert hints.share("a") == pytest.approx(0.15)
    clock[0] = 11
    assert hints.share("a") is None and not hints.is_large("a")


def test_a_tenant_is_searched_over_its_own_memories_while_small_in_the_index_and_not_too_many(monkeypatch):
    assert not search_own_list(None)  # the global page first: it tells the share
    assert search_own_list(0.05) and search_own_list(0.2) and not search_own_list(0.5)
    clock = [0.0]
    monkeypatch.setattr("graph.retrieval.tenant_hints.time.monotonic", lambda: clock[0])
    hints = TenantSizeHints(ttl_seconds=10)
    hints.mark_beyond_own_list("a")
    assert not hints.beyond_own_list("a")  # only large tenants are searched either way
    hints.mark("a", large=True)
    hints.mark_beyond_own_list("a")
    assert hints.beyond_own_list("a") and not hints.beyond_own_list("b")
    clock[0] = 11
    assert not hints.beyond_own_list("a")  # it may have shrunk: asked again after the hint expires


def test_a_short_index_page_that_leaves_the_pool_unfilled_ends_in_exact_ranking():
    assert after_page(kept=20, pool=20, returned=150, k=200, vector_max_k=10_000) == "done"
    # Fewer hits than asked for: HNSW may stop short near the index size, so that is no proof the
    # whole index was ranked.
    assert after_page(kept=3, pool=20, returned=150, k=200, vector_max_k=10_000) == "exact"
    assert after_page(kept=3, pool=20, returned=200, k=200, vector_max_k=10_000) == "widen"
    assert after_page(kept=3, pool=20, returned=10_000, k=10_000, vector_max_k=10_000) == "exact"
