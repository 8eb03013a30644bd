"""Keyword search of one tenant in a full-text index crowded by others' stronger matches.

The full-text index is global. When keyword search asked it for its global best and kept this
tenant's hits afterwards, a tenant whose matches ranked below the widest page it may ask for
(`CREDENCE_KEYWORD_MAX_K`) got no keyword results at all, however many it had. The index query
now names the tenant, so its page holds this tenant's matches only, and the scores are the same
as the unrestricted index's."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graph.retrieval.model import SearchQuery
from graph.retrieval.service import visibility
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


def test_the_tenants_page_is_scored_as_the_whole_index_scores_it(crowded):
    """The tenant term only selects: a hit's BM25 is what an unrestricted query of the index gives it."""
    mine = store(crowded, "birder", "A heron nested by the old mill")
    services = crowded.app.state.services
    filters = visibility(SearchQuery(agent="birder", text="heron"), explain=False)
    found = crowded.portal.call(services.retrieval.candidates.keyword, ["heron"], filters, 10)
    assert list(found.found) == [mine["id"]]

    async def unrestricted() -> float:
        records, _, _ = await services.backend.driver.execute_query(
            "CALL db.index.fulltext.queryNodes('memory_text_by_tenant', 'text:heron', {limit: 1000}) "
            "YIELD node, score WHERE node.id = $id RETURN score", id=mine["id"], database_=services.backend.database)
        return records[0]["score"]
    assert found.found[mine["id"]].score == pytest.approx(crowded.portal.call(unrestricted), rel=1e-6)
