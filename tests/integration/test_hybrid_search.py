"""Hybrid search through the API (PRD v0.8 feature 4, v0.8.1 feature 8): the seed tests for
re-ranking and explainability, keyword candidates with Lucene's special characters, filters in
Cypher, tenant isolation, search:many, admin search and access tracking."""
from __future__ import annotations

import json
import math
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graph.retrieval import SearchQuery, Visibility, keywords
from tests.conftest import TEST_ADMIN_KEY
from tests.helpers import assert_problem, search, store

PRD = {"relevance": 0.40, "confidence": 0.25, "recency": 0.20, "importance": 0.15}
QUERY = "The user's budget for the Lisbon trip is 900 euros"


def claim(subject: str, predicate: str, value: str, **extra) -> dict:
    return {"subject": subject, "predicate": predicate, "value": value, **extra}


def composite(signals: dict, weights: dict) -> float:
    """The PRD's weighted sum, where confidence, recency and importance count in full from relevance
    0.5 (even odds of answering) and in proportion to relevance below it."""
    share = min(1.0, signals["relevance"] / 0.5) if weights["relevance"] > 0 else 1.0
    return signals["relevance"] * weights["relevance"] + share * sum(signals[k] * weights[k] for k in PRD
                                                                     if k != "relevance")


@pytest.fixture
def trip(client, agent):
    """A doubtful memory that matches the query word for word, and a trusted one that says it
    less directly, plus unrelated memories."""
    doubtful = store(client, agent, QUERY, provenance={"source": "inference"})
    trusted = store(client, agent, "Lisbon trip: the user's budget for the whole trip is 900 euros, flights included",
                    provenance={"source": "user_explicit"})
    store(client, agent, "The user's cat is called Miso")
    store(client, agent, "The user prefers aisle seats on long flights", importance=0.9)
    return doubtful, trusted


def test_results_carry_scores_signals_and_the_prd_composite(client, agent, trip):
    results = search(client, agent, QUERY)
    assert results
    # What the trip fixture stored: confidence is the fresh trust of each source (user_explicit 1.0,
    # inference 0.5, the default), importance what was sent (default 0.5).
    known = {QUERY: (0.5, 0.5), trip[1]["text"]: (1.0, 0.5), "The user's cat is called Miso": (0.5, 0.5),
             "The user prefers aisle seats on long flights": (0.5, 0.9)}
    assert {r["text"] for r in results} <= set(known)
    now = datetime.now(UTC)
    for r in results:
        s = r["ranking_signals"]
        assert set(s) == set(PRD) and 0 <= r["score"] <= 1 and s["relevance"] == pytest.approx(r["score"])
        assert (s["confidence"], s["importance"]) == pytest.approx(known[r["text"]], abs=1e-3)
        days = (now - datetime.fromisoformat(r["updated_at"])).total_seconds() / 86_400
        assert s["recency"] == pytest.approx(math.exp(-0.01 * days), abs=1e-4)
        assert r["composite_score"] == pytest.approx(composite(s, PRD))
    composites = [r["composite_score"] for r in results]
    assert composites == sorted(composites, reverse=True)
    assert r["explain"] is None
    assert client.post("/v1/search", json={"agent": agent, "query": QUERY}).json()["meta"] is None


def test_high_confidence_outranks_higher_similarity_with_low_confidence(client, agent, trip):
    doubtful, trusted = trip
    raw = search(client, agent, QUERY, rerank=False)
    assert raw[0]["id"] == doubtful["id"]  # the closer match wins on similarity alone...
    scores = [r["score"] for r in raw]
    assert scores == sorted(scores, reverse=True)
    reranked = search(client, agent, QUERY)
    assert reranked[0]["id"] == trusted["id"]  # ...and loses to the trusted memory on all four signals
    assert [r["id"] for r in reranked] != [r["id"] for r in raw]


def test_a_trusted_off_topic_memory_does_not_outrank_the_on_topic_answer(client, agent):
    # Issue 12: every memory shares one of the query's two keywords ("user"), the shortest with the
    # highest BM25. The rerank's confidence (1.0 against 0.7) must not lift the trusted book above
    # the job: relevance is absolute, so the off-topic memory does not arrive near the answer's.
    reading = store(client, agent, "The user is currently reading Piranesi.", provenance={"source": "user_explicit"})
    job = store(client, agent, "The user is a staff data engineer at Northwind Analytics, leading the platform team.",
                provenance={"source": "user_implicit"})
    store(client, agent, "The user's sister lives in Porto with her two dogs.", provenance={"source": "user_explicit"})
    results = search(client, agent, "What is the user's role?")
    assert results[0]["id"] == job["id"]
    by_id = {r["id"]: r for r in results}
    assert by_id[reading["id"]]["score"] < by_id[job["id"]]["score"]
    assert by_id[job["id"]]["confidence"] < by_id[reading["id"]]["confidence"]  # trust alone would invert them


def test_with_claims_a_trusted_off_topic_memory_does_not_outrank_the_on_topic_answer(client, agent):
    # Issue 12 item 4 as reported: the memories carry claims, as an agent's extraction stores them,
    # with a week between the job and the book (the job was said earlier). Confidence (1.0 against
    # 0.7) and recency must not lift the trusted, newer book over the job for a question about the role.
    week_ago = (datetime.now(UTC) - timedelta(days=7)).isoformat()
    job = store(client, agent, "The user is a staff data engineer at Northwind Analytics, leading the platform team.",
                claim=claim("user", "job_title", "staff data engineer"), provenance={"source": "user_implicit"},
                event_at=week_ago)
    reading = store(client, agent, "The user is currently reading Piranesi.",
                    claim=claim("user", "currently_reading", "Piranesi"), provenance={"source": "user_explicit"})
    store(client, agent, "The user's sister lives in Porto with her two dogs.",
          claim=claim("user_sister", "lives_in", "Porto"), provenance={"source": "user_explicit"})
    store(client, agent, "The user prefers dark mode in every editor.",
          claim=claim("user", "prefers", "dark mode"), provenance={"source": "user_explicit"})
    for query in ("What is the user's role?", "What is the user's job?", "Where does the user work?"):
        results = search(client, agent, query)
        assert results[0]["id"] == job["id"], (query, [r["text"] for r in results])
        by_id = {r["id"]: r for r in results}
        assert by_id[job["id"]]["ranking_signals"]["confidence"] < by_id[reading["id"]]["ranking_signals"]["confidence"]


def test_recency_counts_from_event_at_when_a_memory_has_one(client, agent):
    # The time the fact refers to, not the time it was written: a memory stored today about a
    # move two years ago is not fresh. Without event_at, recency counts from updated_at.
    then = datetime.now(UTC) - timedelta(days=730)
    moved = store(client, agent, "The user moved to Lisbon from Berlin", event_at=then.isoformat())
    lives = store(client, agent, "The user lives in Lisbon, near the river")
    results = {r["id"]: r for r in search(client, agent, "Where does the user live? Lisbon")}
    assert results[moved["id"]]["ranking_signals"]["recency"] == pytest.approx(math.exp(-0.01 * 730), abs=1e-3)
    assert results[lives["id"]]["ranking_signals"]["recency"] == pytest.approx(1.0, abs=1e-3)
    future = store(client, agent, "The user flies to Lisbon next month",
                   event_at=(datetime.now(UTC) + timedelta(days=30)).isoformat())
    results = {r["id"]: r for r in search(client, agent, "Lisbon flight")}
    assert results[future["id"]]["ranking_signals"]["recency"] == pytest.approx(1.0)  # a coming event is current


def test_a_fresh_off_topic_memory_does_not_outrank_an_older_on_topic_fact(client, agent):
    # Recency counts from event_at (11 months ago for the fact): without the relevance gate the fresh,
    # off-topic memory (relevance 0.04, recency 1.0) came first on the recency term alone.
    where = store(client, agent, "The user lives in Berlin", event_at="2026-01-01T00:00:00Z")
    store(client, agent, "The user enjoys sailing on weekends")
    assert search(client, agent, "Which city is home?")[0]["id"] == where["id"]


def test_custom_weights_shift_the_ranking(client, agent, trip):
    importance_only = {"relevance": 0, "confidence": 0, "recency": 0, "importance": 1}
    results = search(client, agent, QUERY, rerank=importance_only)
    assert results[0]["text"] == "The user prefers aisle seats on long flights"
    assert all(r["composite_score"] == pytest.approx(r["importance"]) for r in results)
    partial = search(client, agent, QUERY, rerank={"relevance": 1.0}, explain=True)
    assert partial[0]["explain"]["rerank"]["weights"] == {**PRD, "relevance": 1.0}


@pytest.mark.parametrize("weights, field", [
    ({"relevance": -0.1}, "rerank"), ({"relevance": 0, "confidence": 0, "recency": 0, "importance": 0}, "rerank"),
    ({"relevance": "0.5"}, "rerank"), ({"novelty": 0.5}, "rerank")])
def test_bad_weights_get_422_naming_rerank(client, agent, weights, field):
    response = client.post("/v1/search", json={"agent": agent, "query": "x", "rerank": weights})
    body = assert_problem(response, 422)
    assert any(e["field"].startswith(field) for e in body["errors"]), body


def test_keyword_candidates_find_codes_the_embedding_misses(client, agent):
    invoice = store(client, agent, "Paid invoice INV-4471 from Hallstrom Logistics")
    for i in range(30):
        store(client, agent, f"Paid invoice number {i} for office supplies")
    keyword = search(client, agent, "INV-4471", mode="keyword", explain=True)
    assert keyword[0]["id"] == invoice["id"]
    assert set(keyword[0]["explain"]["retrieved"]["keyword_hits"]) == {"inv", "4471"}
    assert keyword[0]["explain"]["retrieved"]["keyword_score"] == 1.0
    hybrid = search(client, agent, "Hallstrom INV-4471", explain=True)
    assert hybrid[0]["id"] == invoice["id"] and hybrid[0]["explain"]["retrieved"]["vector_similarity"] is not None


@pytest.mark.parametrize("query", ['c++ (v2) [draft] {x} a:b "unbalanced', "~fuzzy^2 *wild? AND OR NOT",
                                   "\\ /path/ && || ! -minus +plus", "+-&&||!(){}[]^\"~*?:\\/", "AND"])
def test_lucene_special_characters_in_queries_are_plain_text(client, agent, query):
    parser = store(client, agent, "The parser is written in C++ (v2), see draft a:b")
    for mode in ("keyword", "hybrid"):
        response = client.post("/v1/search", json={"agent": agent, "query": query, "mode": mode})
        assert response.status_code == 200, response.text
    if query.startswith("c++"):
        assert search(client, agent, query, mode="keyword")[0]["id"] == parser["id"]


def test_hybrid_search_never_crosses_tenants(client, agent, services, run):
    other = f"{agent}-other"
    mine = store(client, agent, "Project Zephyr launches on the ninth of May")
    for i in range(40):  # the other tenant matches the same words better, and more often
        store(client, other, f"Project Zephyr Zephyr launch checklist item {i}")
    for mode in ("hybrid", "keyword", "vector"):
        results = search(client, agent, "Project Zephyr launch", mode=mode, limit=20, explain=True)
        assert [r["id"] for r in results] == [mine["id"]]
    meta = client.post("/v1/search",
                       json={"agent": agent, "query": "Project Zephyr launch", "explain": True}).json()["meta"]
    assert meta["counts"]["candidates"] == 1 and meta["agent"] == agent  # other tenants are not even counted
    # Each candidate query filters by tenant itself, not only the hydration after it: the small
    # tenant's scans, and the global indexes once the tenant is taken for a large one.
    candidates = services.retrieval.candidates
    filters = Visibility.of(SearchQuery(agent=agent, text="x"), explain=True)
    embedding = run(services.retrieval.embed, "Project Zephyr launch")
    keyword_args = (keywords.stemmed(["project", "zephyr", "launch"]), filters, 30)
    scanned = run(candidates.keyword, *keyword_args)
    candidates.hints.mark(filters.key, large=True)
    try:
        indexed = run(candidates.keyword, *keyword_args)
    finally:
        candidates.hints.mark(filters.key, large=False)
    # The vector index query itself: the global top 50 holds the other tenant's better matches,
    # and only this tenant's memory is listed.
    [page] = run(lambda: services.runner.read("retrieval/vector", k=50, embedding=embedding, **filters.params()))
    assert page["scanned"] > 1  # the other tenant's memories were ranked, and not listed
    assert set(scanned.reasons) == set(indexed.reasons) == {h["id"] for h in page["hits"]} == {mine["id"]}


def test_validity_is_checked_at_as_of(client, agent):
    lease = store(client, agent, "The user rents a flat on Rua Augusta", claim=claim(
        "user", "rents_at", "Rua Augusta", scope="temporal",
        valid_from="2025-01-01T00:00:00Z", valid_until="2026-01-01T00:00:00Z"))
    query = "where does the user rent a flat"
    assert search(client, agent, query, as_of="2025-06-01T00:00:00Z")[0]["id"] == lease["id"]
    response = client.post("/v1/search", json={"agent": agent, "query": query, "explain": True})
    assert response.json()["results"] == []  # now is after the window
    assert response.json()["meta"]["excluded"]["validity_mismatch"] == 1
    assert search(client, agent, query, as_of="2026-01-01T00:00:00Z") == []  # valid_until is exclusive
    assert search(client, agent, query, as_of="2024-12-31T23:59:59Z") == []
    assert_problem(client.post("/v1/search", json={"agent": agent, "query": query, "as_of": "2025-06-01T00:00:00"}),
                   422, "as_of")  # a time without a zone is ambiguous


def test_filters_by_tags_and_time(client, agent):
    both = store(client, agent, "Invoice paid for the Berlin office", tags=["finance", "berlin"])
    one = store(client, agent, "Invoice paid for the Lisbon office", tags=["finance"])
    dated = store(client, agent, "Invoice paid at the Madrid conference", event_at="2026-03-10T09:00:00Z")
    ids = lambda **kw: {r["id"] for r in search(client, agent, "invoice paid office", **kw)}  # noqa: E731
    assert ids(tags=["finance"]) == {both["id"], one["id"]}
    assert ids(tags=["finance", "berlin"]) == {both["id"]}
    created = datetime.fromisoformat(one["created_at"])
    assert ids(after=(created - timedelta(microseconds=1)).isoformat()) >= {one["id"], dated["id"]}
    assert both["id"] not in ids(after=(created - timedelta(microseconds=1)).isoformat())
    assert ids(before=created.isoformat()) == {both["id"]}
    assert ids(time_field="event_at", after="2026-03-01T00:00:00Z", before="2026-04-01T00:00:00Z") == {dated["id"]}
    assert ids(time_field="event_at", before="2026-03-01T00:00:00Z") == set()
    assert_problem(client.post("/v1/search", json={"agent": agent, "query": "x", "after": "2026-04-01T00:00:00Z",
                                                   "before": "2026-03-01T00:00:00Z"}), 422)


def test_explain_counts_and_items(client, agent):
    old = store(client, agent, "The user's budget is $500", claim=claim("user", "budget_is", "$500"),
                provenance={"source": "user_explicit"})
    new = store(client, agent, "The user's budget is $750", claim=claim("user", "budget_is", "$750"),
                provenance={"source": "user_explicit"})
    blocked = store(client, agent, "The user's budget is $0", claim=claim("user", "budget_is", "$0"),
                    provenance={"source": "inference"})
    assert new["superseded"] == [old["id"]] and blocked["quarantined"]
    store(client, agent, "The user's budget review is every quarter")

    response = client.post("/v1/search", json={"agent": agent, "query": "user budget", "explain": True, "limit": 5})
    body = response.json()
    meta, results = body["meta"], body["results"]
    assert meta["query"] == "user budget" and meta["agent"] == agent
    assert meta["options"]["limit"] == 5 and meta["options"]["rerank"] == PRD and "embedding" not in meta["options"]
    assert meta["counts"]["returned"] == len(results) == 2
    assert meta["excluded"]["superseded"] == 1 and meta["excluded"]["quarantined"] == 1
    assert meta["counts"]["candidates"] == 4 and meta["counts"]["after_status_filter"] == 2
    top = results[0]
    assert top["id"] == new["id"]
    assert set(top["explain"]) == {"retrieved", "rerank", "status"}
    assert top["explain"]["retrieved"]["keyword_hits"] == ["user", "budget"]
    assert top["explain"]["rerank"]["composite_score"] == top["composite_score"]
    assert top["explain"]["status"] == {"status": "active", "superseded_by": None, "quarantine": None}
    assert top["claim"]["predicate"] == "budget_is" and top["claim"]["value"] == "$750"  # results carry their claim
    assert "track_access" not in meta["options"]  # internals stay out of explain

    shown = client.post("/v1/search", json={"agent": agent, "query": "user budget", "explain": True,
                                            "include_all": True}).json()
    by_id = {r["id"]: r for r in shown["results"]}
    assert by_id[old["id"]]["explain"]["status"]["superseded_by"] == new["id"]
    assert by_id[blocked["id"]]["explain"]["status"]["quarantine"]["reason"] == "trust_insufficient"
    assert shown["meta"]["excluded"]["superseded"] == 0

    # "review" is in one memory only: the other holds two of the three terms and falls below 0.99.
    strict = client.post("/v1/search", json={"agent": agent, "query": "user budget review", "explain": True,
                                             "min_similarity": 0.99}).json()
    assert strict["meta"]["excluded"]["below_min_similarity"] >= 1
    # min_similarity compares the absolute match, max(cosine, keyword score), not the normalised score.
    retrieved = [r["explain"]["retrieved"] for r in strict["results"]]
    assert all(max(x["vector_similarity"], x["keyword_score"] or 0) >= 0.99 for x in retrieved)


# A dialogue so far as the search text, as an agent recalling mid-conversation sends it: 30 content terms.
DIALOGUE = ("Hi! How was your weekend? It was great, really fun and happy, thanks for asking. "
            "We had a wonderful lazy time at home, sunny weather, pizza, movies, friends came over, lovely evening. "
            "Nice! Anything new? Well, I keep thinking about getting a dog, maybe a puppy.")


def test_explain_says_which_terms_keyword_search_used_and_how_much_they_counted(client, agent):
    store(client, agent, "The user's monthly budget is $750")
    short = client.post("/v1/search", json={"agent": agent, "query": "what is the user's monthly budget?",
                                            "explain": True}).json()["meta"]
    assert short["keyword_terms"] == ["user", "monthly", "budget"] and short["keyword_weight"] == 1.0
    vector = client.post("/v1/search", json={"agent": agent, "query": DIALOGUE, "mode": "vector",
                                             "explain": True}).json()["meta"]
    assert vector["keyword_terms"] == [] and vector["keyword_weight"] == 1.0
    long = client.post("/v1/search", json={"agent": agent, "query": DIALOGUE, "explain": True}).json()["meta"]
    assert len(long["keyword_terms"]) == 30 and "dog" in long["keyword_terms"] and "how" not in long["keyword_terms"]
    assert long["keyword_weight"] == pytest.approx(12 / 30)
    keyword = client.post("/v1/search", json={"agent": agent, "query": DIALOGUE, "mode": "keyword",
                                              "explain": True}).json()["meta"]
    assert len(keyword["keyword_terms"]) > 12 and keyword["keyword_weight"] == 1.0  # nothing to weigh it against


def test_search_many_answers_each_search_in_order(client, agent, trip):
    doubtful, trusted = trip
    response = client.post("/v1/search:many", json={"agent": agent, "searches": [
        {"query": QUERY}, {"query": QUERY, "rerank": False}, {"query": "cat name", "limit": 1, "explain": True}]})
    assert response.status_code == 200, response.text
    first, raw, cat = response.json()["results"]
    assert first["results"][0]["id"] == trusted["id"] and raw["results"][0]["id"] == doubtful["id"]
    assert cat["count"] == 1 and cat["results"][0]["text"] == "The user's cat is called Miso"
    assert cat["meta"]["counts"]["returned"] == 1 and first["meta"] is None
    bad = client.post("/v1/search:many",
                      json={"agent": agent, "searches": [{"query": "x"}, {"query": "x", "limit": 0}]})
    assert_problem(bad, 422, "searches[1].limit")


def test_admin_search_spans_the_named_tenants_only(client, agent):
    a = store(client, agent, "Quarterly offsite in Porto")
    b = store(client, f"{agent}-b", "Quarterly offsite in Porto, second team")
    store(client, f"{agent}-c", "Quarterly offsite in Porto, third team")
    body = {"agents": [agent, f"{agent}-b"], "query": "offsite in Porto", "explain": True}
    assert_problem(client.post("/v1/admin/search", json=body), 401)
    assert_problem(client.post("/v1/admin/search", json=body, headers={"Authorization": "Bearer wrong"}), 401)
    response = client.post("/v1/admin/search", json=body, headers={"Authorization": f"Bearer {TEST_ADMIN_KEY}"})
    assert response.status_code == 200, response.text
    out = response.json()
    assert {r["id"] for r in out["results"]} == {a["id"], b["id"]}
    assert {r["agent"] for r in out["results"]} == {agent, f"{agent}-b"}
    assert set(out["meta"]) == {agent, f"{agent}-b"}


def test_retrieval_counts_access_without_touching_version_or_recency(client, agent):
    memory = store(client, agent, "The user's locker code is 4312")
    search(client, agent, "locker code")
    search(client, agent, "locker code")
    deadline = time.monotonic() + 10
    while True:
        got = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
        if got["access_count"] >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert got["access_count"] == 2 and got["last_accessed_at"] is not None
    assert got["version"] == memory["version"] and got["updated_at"] == memory["updated_at"]


def test_access_counts_from_several_processes_add_up_and_never_move_last_access_back(client, services, agent, run):
    """Each service process flushes the counts it gathered (graph/memories/access.py); two flushes of
    two processes may commit in the other order than their clocks read. Counts add up, and the last
    access is the latest of them, not the last committed."""
    memory = store(client, agent, "The spare key is under the blue pot")
    later, earlier = "2031-05-02T10:00:05+00:00", "2031-05-02T10:00:01+00:00"
    for now, n in ((later, 2), (earlier, 3)):  # the second process's flush commits last
        async def flush(tx, now=now, n=n) -> int:
            return await tx.scalar("memories/record_access", agent=agent, hits=[{"id": memory["id"], "n": n}],
                                   now=now)
        assert run(services.runner.write_tx, flush) == 1
    got = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert got["access_count"] == 5
    assert got["last_accessed_at"].startswith("2031-05-02T10:00:05")


def _shape(value) -> object:
    """Keys all the way down (lists by their first item): what a documented example must match."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value and isinstance(value[0], (dict, list)) else []
    return None


def test_the_documented_explain_example_has_the_shape_of_a_real_response(client, agent):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "retrieval.md").read_text()
    example = json.loads(doc.split("<!-- example:search-explain -->")[1].split("<!-- /example:search-explain -->")[0]
                         .strip().removeprefix("```json").removesuffix("```"))
    budget = lambda value: claim("user", "budget_is", value)  # noqa: E731
    store(client, agent, "The user's monthly budget is $500", claim=budget("$500"),
          provenance={"source": "user_explicit"})
    store(client, agent, "The user's monthly budget is $750", claim=budget("$750"),
          provenance={"source": "user_explicit"}, importance=0.8)
    store(client, agent, "The user's monthly budget is $0", claim=budget("$0"), provenance={"source": "inference"})
    store(client, agent, "The user reviews the budget every quarter", provenance={"source": "user_implicit"})
    store(client, agent, "The user's cat is called Miso")
    real = client.post("/v1/search", json={"agent": agent, "query": example["meta"]["query"], "explain": True,
                                           "limit": 2}).json()
    assert _shape(example) == _shape(real)
    assert example["meta"]["counts"] == real["meta"]["counts"]
    assert example["meta"]["excluded"] == real["meta"]["excluded"]
    assert [r["text"] for r in example["results"]] == [r["text"] for r in real["results"]][:len(example["results"])]
