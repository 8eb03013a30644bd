"""Many keyword searches of a large tenant in a row, one at a time, never fail.

ArcadeDB 26.10.2 keeps a budget of query heap shared by the queries running at once
(`arcadedb.queryMaxHeapRAM`, half the JVM heap by default) and charges an in-heap ORDER BY or GROUP BY
against it. Over Bolt, what `retrieval/keyword_postings` reserves for a tenant of thousands of memories
is not all given back when the statement ends, so the reservations pile up search after search: with
the shipped 2 GB heap a 100k benchmark's search failed after a few hundred searches ("the queries
running now already hold 1.50GB of the 1.50GB budget"), although only one query ran. The embedded
backend runs with the budget off (docs/backends.md §2.26); a small heap here makes the old failure
come within a dozen searches."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.conftest import backend_test_settings
from tests.helpers import search, store_many

pytestmark = pytest.mark.slow

MEMORIES = 3000  # every one holds the query's words: each search orders thousands of postings
SEARCHES = 60    # the budget ran out at the 12th search with a 256 MB heap


@pytest.fixture(params=["arcadedb", "neo4j"])
def large_tenant(request, tmp_path, embedder):
    heap = {"embedded_heap": "256m"} if request.param == "arcadedb" else {"local_neo4j_heap": "512m"}
    # exact_scan_max 0: the tenant goes through the full-text index, as a large tenant does.
    settings = backend_test_settings(request.param, tmp_path, exact_scan_max=0, **heap)
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        store_many(client, "big", [f"The user and the team reviewed project {i} at the weekly status meeting"
                                   for i in range(MEMORIES)])
        yield client


def test_keyword_searches_of_a_large_tenant_do_not_exhaust_the_query_heap(large_tenant):
    words = ["user team", "project status", "weekly meeting", "team project review", "status user weekly"]
    for i in range(SEARCHES):
        hits = search(large_tenant, "big", f"{words[i % len(words)]} {i}", mode="keyword", limit=5)
        assert len(hits) == 5
