"""Vector search through the API: ranking, filters, and correctness per tenant. Here search runs
in vector mode without rerank, so its order is the embedding model's; test_hybrid_search.py covers
the hybrid pipeline."""
from __future__ import annotations

import time

import numpy as np
import pytest

from graph.retrieval.fusion import VECTOR_WEIGHTS, relevance
from graph.retrieval.model import SearchQuery
from graph.retrieval.visibility import Visibility
from tests.conftest import TEST_EXACT_SCAN_MAX
from tests.helpers import search as hybrid_search
from tests.helpers import store, store_many

A_TEXTS = [
    "The user's monthly budget for groceries is 400 euros",
    "The user is allergic to peanuts",
    "The user's daughter plays the violin",
    "The user wants to run a marathon next spring",
    "The user's car is a blue 2015 Volvo estate",
    "The user prefers aisle seats on long flights",
    "The user works remotely for a logistics company",
    "The user's favourite cuisine is Georgian food",
    "The user is learning Portuguese on weekday evenings",
    "The user's landlord raised the rent in March",
]
QUERY = "How much does the user spend on food each month?"


def search(client, agent: str, query: str, **options):
    return hybrid_search(client, agent, query, **{"mode": "vector", "rerank": False, **options})


def expected_order(embedder, query: str, texts: list[str]) -> list[str]:
    vectors = embedder.encode(texts)
    scores = vectors @ embedder.encode([query])[0]
    return [texts[i] for i in np.argsort(-scores, kind="stable")]


@pytest.fixture(scope="module")
def crowded(client):
    """Another tenant holding 5,000 near-duplicates of the query topic, dominating the index."""
    agent = "crowd-b"
    texts = [f"Grocery budget note {i}: the user spends about {300 + i % 200} euros a month on food"
             for i in range(5000)]
    store_many(client, agent, texts)
    return agent


def test_results_are_ranked_by_similarity_with_cosine_scores(client, agent, embedder):
    for text in A_TEXTS:
        store(client, agent, text)
    results = search(client, agent, QUERY, limit=10)
    assert [r["text"] for r in results] == expected_order(embedder, QUERY, A_TEXTS)
    # Similarities are true cosines, whatever scale the backend's function uses; the relevance
    # score is absolute (issue 12): in vector mode the vector fit of the cosine alone, whatever the
    # other candidates' cosines are (it was the cosine relative to the best one's).
    vectors = embedder.encode([r["text"] for r in results])
    expected = vectors @ embedder.encode([QUERY])[0]
    assert [r["similarity"] for r in results] == pytest.approx(expected.tolist(), abs=1e-4)
    assert [r["score"] for r in results] == pytest.approx(
        [relevance(VECTOR_WEIGHTS, e, None, 0.0) for e in expected.tolist()], abs=1e-4)
    assert 0 < results[-1]["score"] < results[0]["score"] < 1
    scores = [r["similarity"] for r in results]
    assert scores == sorted(scores, reverse=True) and all(-1 <= s <= 1 for s in scores)
    assert results[0]["text"] == A_TEXTS[0]


def test_small_tenant_gets_its_own_best_matches_despite_a_crowded_index(client, agent, crowded, embedder):
    store_many(client, agent, A_TEXTS)
    results = search(client, agent, QUERY, limit=5)
    assert {r["agent"] for r in results} == {agent}
    assert [r["text"] for r in results] == expected_order(embedder, QUERY, A_TEXTS)[:5]
    # And the crowd itself is searchable, without A's memories.
    crowd = search(client, crowded, QUERY, limit=20)
    assert len(crowd) == 20 and {r["agent"] for r in crowd} == {crowded}


def test_large_tenant_goes_through_the_vector_index_and_stays_isolated(client, agent, crowded, services, run,
                                                                      monkeypatch):
    topics = ["sailing", "chess", "gardening", "pottery", "astronomy", "cycling"]
    texts = [f"Note {i}: the user talked about {topics[i % len(topics)]} today" for i in range(3 * TEST_EXACT_SCAN_MAX)]
    texts.append("The user keeps a strict monthly food budget and tracks every grocery receipt")
    store_many(client, agent, texts)

    result = run(services.retrieval.search, SearchQuery(agent=agent, text=QUERY, limit=10, mode="vector", rerank=None))
    assert result.strategy == "index"
    assert {h.memory.agent for h in result.hits} == {agent}
    assert result.hits[0].memory.text == texts[-1]
    assert len(result.hits) == 10
    # The index's cosine (ranking) and the exact one (hydrated) agree: on Neo4j that needs vector
    # quantisation off, which would otherwise move index scores by ~0.002.
    assert [h.score for h in result.hits] == pytest.approx(
        [relevance(VECTOR_WEIGHTS, h.similarity, None, 0.0) for h in result.hits], abs=1e-4)

    api_results = search(client, agent, QUERY, limit=10)
    assert [r["id"] for r in api_results] == [h.memory.id for h in result.hits]
    scores = [r["score"] for r in api_results]
    assert scores == sorted(scores, reverse=True)

    # A share hint far too high sizes a first page that comes up short: the search widens it by the
    # share that page showed, and finds as good a ten (many notes here are near-ties, so by score).
    query = SearchQuery(agent=agent, text=QUERY, limit=10, mode="vector", rerank=None)
    hints = services.retrieval.candidates.hints
    for _ in range(10):
        hints.observe_share(Visibility.of(query).key, 1.0)
    pages: list[int] = []
    read_one = services.runner.read_one

    async def counted(name, **params):
        if name == "retrieval/vector" and params.get("agent") == agent:
            pages.append(params["k"])
        return await read_one(name, **params)
    monkeypatch.setattr(services.runner, "read_one", counted)
    widened = run(services.retrieval.search, query)
    assert widened.hits[0].memory.text == texts[-1] and {h.memory.agent for h in widened.hits} == {agent}
    assert [h.score for h in widened.hits] == pytest.approx([h.score for h in result.hits], abs=1e-3)
    assert len(pages) >= 2 and pages[0] < 200 and pages[1] > pages[0], pages


def test_a_large_tenant_is_searched_over_its_own_memories_on_arcadedb(client, agent, crowded, services, run, embedder,
                                                                     monkeypatch):
    """On ArcadeDB a large tenant holding a small share of the index is searched over its own memories
    (retrieval/arcadedb/vector_in_tenant), exactly, whatever a crowd of other tenants' nearer vectors;
    a tenant with more than vector_in_tenant_max takes the global page. Neo4j never runs it."""
    words = ["kayaks", "tax forms", "tulips", "violins", "rent"] * (2 * TEST_EXACT_SCAN_MAX // 5)
    texts = [f"Entry {i}: the user mentioned {w} during the call" for i, w in enumerate(words)]
    texts += ["The user keeps a strict monthly food budget and tracks every grocery receipt",
              "The user's weekly shop at the market costs about ninety euros"]
    stored = store_many(client, agent, texts)
    hidden = store(client, agent, "The user's food spending per month is written in a notebook")
    client.delete(f"/v1/memories/{hidden['id']}", params={"agent": agent})  # archived
    # The background search after writes drops the tenant's size hint first: let it finish.
    deadline = time.monotonic() + 60
    while not (services.retrieval._warming is None or services.retrieval._warming.done()):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    ran: list[str] = []
    read_one = services.runner.read_one

    async def recorded(name, **params):
        if params.get("agent") == agent and name.startswith(("retrieval/vector", "retrieval/arcadedb/")):
            ran.append(name)
        return await read_one(name, **params)
    monkeypatch.setattr(services.runner, "read_one", recorded)
    query = SearchQuery(agent=agent, text=QUERY, limit=10, mode="vector", rerank=None)
    services.retrieval.candidates.hints.mark(Visibility.of(query).key, large=False)  # as if never searched
    first = run(services.retrieval.search, query)  # reads the global page: the tenant's share is unknown
    assert ran and set(ran) == {"retrieval/vector"}
    ran.clear()
    own = run(services.retrieval.search, query)
    api_results = search(client, agent, QUERY, limit=10)

    vectors = embedder.encode(texts)
    cosines = np.sort(vectors @ embedder.encode([QUERY])[0])[::-1][:10]
    for result in (first, own):
        assert {h.memory.agent for h in result.hits} == {agent} and result.strategy == "index"
        assert result.hits[0].memory.text == texts[-2] and hidden["id"] not in {h.memory.id for h in result.hits}
    assert [r["id"] for r in api_results] == [h.memory.id for h in own.hits]
    if services.backend.is_neo4j:
        assert set(ran) == {"retrieval/vector"} and services.retrieval.candidates.vector_in_tenant_max == 0
        return
    assert ran == ["retrieval/arcadedb/vector_in_tenant"] * 2
    # Exact: the tenant's ten best cosines, as the index and the hydrated memories both say.
    assert [h.similarity for h in own.hits] == pytest.approx(list(cosines), abs=1e-5)
    assert [h.score for h in own.hits] == pytest.approx(
        [relevance(VECTOR_WEIGHTS, h.similarity, None, 0.0) for h in own.hits], abs=1e-4)

    # The page itself: only this tenant's memories, the archived one listed with its reason under
    # explain, and a tenant with none asks the index for nothing (an empty allow-list is no filter).
    embedding = run(services.retrieval.embed, QUERY)

    def page_of(filters: dict) -> dict:
        return run(lambda: read_one("retrieval/arcadedb/vector_in_tenant", k=20, scan_cap=10_000,
                                    embedding=embedding, **filters))
    for explain in (False, True):
        page = page_of(Visibility.of(query, explain=explain).params())
        assert page["members"] == len(stored) + explain and page["scanned"] == 20
        assert {h["id"] for h in page["hits"]} <= {m["id"] for m in stored} | {hidden["id"]}
        assert ({h["id"]: h["reason"] for h in page["hits"]}.get(hidden["id"]) == "archived") == explain
        nobody = SearchQuery(agent=f"{agent}-nobody", text=QUERY)
        assert page_of(Visibility.of(nobody, explain=explain).params()) == {"members": 0, "scanned": 0, "hits": []}

    # More shown memories than the cap: the global page, remembered for the next search.
    ran.clear()
    monkeypatch.setattr(services.retrieval.candidates, "vector_in_tenant_max", 50)
    capped = [run(services.retrieval.search, query) for _ in range(2)]
    assert ran[0] == "retrieval/arcadedb/vector_in_tenant" and set(ran[1:]) == {"retrieval/vector"}
    assert [h.memory.id for h in capped[0].hits] == [h.memory.id for h in capped[1].hits]
    assert [h.similarity for h in capped[0].hits] == pytest.approx(list(cosines), abs=1e-3)


def test_filters_by_memory_type_status_and_min_score(client, agent):
    pref = store(client, agent, "The user prefers dark mode in every app", memory_type="preference")
    fact = store(client, agent, "The user's laptop runs a dark theme by default")
    store(client, agent, "The user's cat is called Miso")
    ids = lambda results: [r["id"] for r in results]  # noqa: E731

    assert ids(search(client, agent, "dark mode", memory_types=["preference"])) == [pref["id"]]
    client.delete(f"/v1/memories/{fact['id']}", params={"agent": agent})
    assert fact["id"] not in ids(search(client, agent, "dark theme"))
    assert fact["id"] in ids(search(client, agent, "dark theme", statuses=["active", "archived"]))

    # min_score (alias of min_similarity) compares the absolute match: the cosine, in vector mode.
    everything = search(client, agent, "dark mode", limit=10, mode="vector")
    threshold = (everything[0]["similarity"] + everything[-1]["similarity"]) / 2
    above = search(client, agent, "dark mode", min_score=threshold, mode="vector")
    assert above and all(r["similarity"] >= threshold for r in above) and len(above) < len(everything)


def test_limit_caps_results_and_an_empty_tenant_finds_nothing(client, agent):
    store_many(client, agent, [f"fact number {i}" for i in range(15)])
    assert len(search(client, agent, "fact", limit=3)) == 3
    assert search(client, f"{agent}-empty", "fact") == []
