"""Keyword search of one tenant in a full-text index crowded by others' stronger matches.

The full-text index is global. When keyword search asked it for its global best and kept this
tenant's hits afterwards, a tenant whose matches ranked below the widest page it may ask for
(`CREDENCE_KEYWORD_MAX_K`) got no keyword results at all, however many it had. The index query
names the tenant, so its answer holds this tenant's matches only, and their BM25 is computed over
the tenant's own memories, not the index's statistics of every tenant."""
from __future__ import annotations

import math

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graph.retrieval import SearchQuery, Visibility, keywords
from graph.retrieval.bm25 import K1, B, bm25
from tests.conftest import backend_test_settings
from tests.helpers import search, store, store_many

pytestmark = pytest.mark.slow

CROWD = 150  # more strong matches than the widest page (keyword_max_k 100) holds
HERON_MILL = keywords.stemmed(["heron", "mill"])


@pytest.fixture(scope="module", params=["arcadedb", "neo4j"])
def crowded(request, tmp_path_factory, embedder):
    """One crowded service per backend for the module; each test writes its own tenant."""
    tmp_path = tmp_path_factory.mktemp(f"crowded-{request.param}")
    # exact_scan_max 0: every tenant goes through the indexes; keyword_max_k at its floor of 100;
    # keyword_stats_ttl 0: every keyword search reads the tenant's statistics afresh.
    settings = backend_test_settings(request.param, tmp_path, exact_scan_max=0, keyword_max_k=100,
                                     keyword_stats_ttl=0)
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        store_many(client, "crowd", [f"heron heron {i}" for i in range(CROWD)])
        yield client


def test_a_tenants_keyword_matches_are_found_below_a_crowd_of_stronger_ones(crowded):
    mine = store(crowded, "birder", "At the lake on Sunday the user watched a grey heron catch a fish")
    store(crowded, "birder", "The user's bicycle needs a new chain")
    hits = search(crowded, "birder", "heron", mode="keyword", explain=True)
    assert [h["id"] for h in hits] == [mine["id"]]
    assert hits[0]["explain"]["retrieved"]["keyword_hits"] == ["heron"]


def test_keyword_scores_are_bm25_over_the_tenant_alone_on_both_backends(crowded):
    """The BM25 a large tenant's hit is fused with is graph/retrieval/bm25.py's formula over the
    tenant's own memories, on both backends: the crowd's 150 'heron' memories, another tenant's,
    count for nothing (over the whole index 'heron' would be common and nearly worthless). The
    tenant holds two memories; both query terms are in one of them only."""
    mine = store(crowded, "scorer", "grey heron nests near mill")
    store(crowded, "scorer", "The user's bicycle needs a new chain")
    services = crowded.app.state.services
    filters = Visibility.of(SearchQuery(agent="scorer", text="heron mill"), explain=False)
    found = crowded.portal.call(services.retrieval.candidates.keyword, HERON_MILL, filters, 10).found
    assert list(found) == [mine["id"]]
    # Two memories of 5 and 7 words (split on spaces, as retrieval/keyword_exact counts them).
    expected = bm25([(mine["id"], [0, 1], 5)], collection_size=2, average_words=6.0)[mine["id"]]
    idf = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    assert expected == pytest.approx(2 * idf * (K1 + 1) / (1 + K1 * (1 - B + B * 5 / 6)))
    assert found[mine["id"]].score == pytest.approx(expected, rel=1e-9)


def test_another_tenants_data_never_moves_a_tenants_keyword_scores(crowded):
    """The same search in one tenant before and after another tenant stores memories full of the
    query's terms: the same hits with the same scores (over the whole index, 'heron' would lose its
    weight and the order could change). The tenant's own changes do move them: its statistics are
    read from the database (here on every search), counting its memories whatever their status."""
    services = crowded.app.state.services
    mine = [store(crowded, "watcher", text)["id"] for text in (
        "a heron on the mill pond", "the mill wheel turns slowly", "heron chicks hatched in the reeds",
        "the user fixed the bicycle chain")]
    filters = Visibility.of(SearchQuery(agent="watcher", text="heron mill"), explain=False)

    def scores():
        found = crowded.portal.call(services.retrieval.candidates.keyword, HERON_MILL, filters, 10).found
        return [(id_, f.score) for id_, f in found.items()]

    def stats():
        held = crowded.portal.call(services.retrieval.candidates.stats.of, "watcher")
        return held.memories, held.words
    before = scores()
    assert {i for i, _ in before} == set(mine[:3])
    assert stats() == (4, 23)
    store_many(crowded, "millers", [f"mill mill mill {i} heron" for i in range(60)])
    assert scores() == before and stats() == (4, 23)
    # Its own: a longer text, an archived memory (still counted, as the index still holds it), one gone.
    patched = crowded.patch(f"/v1/memories/{mine[3]}", params={"agent": "watcher"},
                            json={"text": "the user fixed the bicycle chain by the old mill"})
    assert patched.status_code == 200, patched.text
    assert stats() == (4, 27)
    after = dict(scores())
    assert set(after) == set(mine) and after[mine[0]] != dict(before)[mine[0]]
    crowded.delete(f"/v1/memories/{mine[1]}", params={"agent": "watcher"}).raise_for_status()
    assert stats() == (4, 27)
    crowded.delete(f"/v1/memories/{mine[2]}", params={"agent": "watcher", "hard": True}).raise_for_status()
    assert stats() == (3, 21)



def test_a_large_tenants_best_shown_matches_are_found_below_its_own_hidden_better_ones(crowded):
    """Keyword search filters only a large tenant's best scored candidates (a few per hit asked
    for) and reads the rest when too few of those are shown: here the tenant's eight best matches
    are archived, so the hits asked for come from below them, scored as before, best first."""
    services = crowded.app.state.services
    hidden = store_many(crowded, "keeper", [f"heron mill {i}" for i in range(8)])
    shown = [store(crowded, "keeper", text)["id"] for text in (
        "a grey heron stood by the old mill", "the mill pond froze over in the long cold winter",
        "the heron flew off over the reeds towards the river at dusk")]
    for memory in hidden:
        crowded.delete(f"/v1/memories/{memory['id']}", params={"agent": "keeper"}).raise_for_status()
    filters = Visibility.of(SearchQuery(agent="keeper", text="heron mill"), explain=False)
    found = crowded.portal.call(services.retrieval.candidates.keyword, HERON_MILL, filters, 2).found
    assert list(found) == shown[:2]
    # The same hits and scores as with every candidate filtered at once (explain does that).
    everything = crowded.portal.call(services.retrieval.candidates.keyword, HERON_MILL,
                                     Visibility.of(SearchQuery(agent="keeper", text="heron mill"), explain=True),
                                     2)
    assert [(i, f.score) for i, f in found.items()] == [(i, f.score) for i, f in everything.found.items()]
    assert {i for i, r in everything.reasons.items() if r == "archived"} == {m["id"] for m in hidden}
