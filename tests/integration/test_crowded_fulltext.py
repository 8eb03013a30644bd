"""Keyword search of one tenant in a full-text index crowded by others' stronger matches.

The full-text index is global. When keyword search asked it for its global best and kept this
tenant's hits afterwards, a tenant whose matches ranked below the widest page it may ask for
(`CREDENCE_KEYWORD_MAX_K`) got no keyword results at all, however many it had. The index query
now names the tenant, so its page holds this tenant's matches only, and the scores are the same
as the unrestricted index's."""
from __future__ import annotations

import math

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graph.retrieval import SearchQuery, Visibility
from graph.retrieval.bm25 import K1, B
from tests.conftest import backend_test_settings
from tests.helpers import search, store, store_many

pytestmark = pytest.mark.slow

CROWD = 150  # more strong matches than the widest page (keyword_max_k 100) holds


@pytest.fixture(params=["arcadedb", "neo4j"])
def crowded(request, tmp_path, embedder):
    # exact_scan_max 0: every tenant goes through the indexes; keyword_max_k at its floor of 100.
    settings = backend_test_settings(request.param, tmp_path, exact_scan_max=0, keyword_max_k=100)
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        store_many(client, "crowd", [f"heron heron {i}" for i in range(CROWD)])
        yield client


def test_a_tenants_keyword_matches_are_found_below_a_crowd_of_stronger_ones(crowded):
    mine = store(crowded, "birder", "At the lake on Sunday the user watched a grey heron catch a fish")
    store(crowded, "birder", "The user's bicycle needs a new chain")
    hits = search(crowded, "birder", "heron", mode="keyword", explain=True)
    assert [h["id"] for h in hits] == [mine["id"]]
    assert hits[0]["explain"]["retrieved"]["keyword_hits"] == ["heron"]


def test_keyword_scores_are_bm25_on_one_scale_on_both_backends(crowded):
    """The BM25 a hit is fused with is Lucene's formula with its (k1 + 1) factor on both backends
    (Neo4j's index leaves the factor out, graph/retrieval/fulltext_scale.py), and the tenant clause
    adds nothing to it. The graph holds the crowd and this one memory, so the expected score follows
    from counts: 'heron' is in every memory, 'mill' in this one only."""
    mine = store(crowded, "birder", "grey heron nests near mill")
    services = crowded.app.state.services
    filters = Visibility.of(SearchQuery(agent="birder", text="heron mill"), explain=False)
    found = crowded.portal.call(services.retrieval.candidates.keyword, ["heron", "mill"], filters, 10).found
    assert list(found) == [mine["id"]]

    # ArcadeDB counts a memory's length over both indexed fields, its text and the one token term;
    # Neo4j over the text alone (docs/backends.md §2.16).
    extra = 0 if services.backend.is_neo4j else 1
    docs, lengths = CROWD + 1, [3 + extra] * CROWD + [5 + extra]  # "heron heron 17": 3 terms; this memory: 5
    average = sum(lengths) / docs

    def term(held_by: int, tf: int, length: int) -> float:
        idf = math.log(1 + (docs - held_by + 0.5) / (held_by + 0.5))
        return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
    expected = term(docs, 1, 5 + extra) + term(1, 1, 5 + extra)
    assert found[mine["id"]].score == pytest.approx(expected, rel=1e-3)
