"""Vector search through the API: ranking, filters, and correctness per tenant. Here search runs
in vector mode without rerank, so its order is the embedding model's; test_hybrid_search.py covers
the hybrid pipeline."""
from __future__ import annotations

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
