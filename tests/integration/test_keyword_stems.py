"""Keyword search matches stems: "hiking" finds a memory that says "hiked", on both keyword paths
(a small tenant's scan and the full-text index a large tenant goes through), for memories written,
patched and imported, and never another tenant's."""
from __future__ import annotations

import json
import uuid

from graph.retrieval import SearchQuery, Visibility


def keyword_search(client, agent: str, query: str) -> tuple[list[dict], dict]:
    response = client.post("/v1/search", json={"agent": agent, "query": query, "mode": "keyword", "explain": True})
    assert response.status_code == 200, response.text
    return response.json()["results"], response.json()["meta"]


def ids(client, agent: str, query: str) -> list[str]:
    return [h["id"] for h in keyword_search(client, agent, query)[0]]


def test_keyword_search_matches_other_forms_of_a_word_on_both_paths(client, services, agent):
    def stored(text: str, tenant: str = agent) -> str:
        response = client.post("/v1/memories", json={"agent": tenant, "text": text})
        assert response.status_code == 201, response.text
        return response.json()["id"]

    hiked = stored("We hiked up Ben Nevis in the rain")
    prefers = stored("The user prefers window seats on trains")
    stored("The user's cat is called Miso")
    stored("Hiking boots for sale, preferences welcome", tenant=f"{agent}-other")
    hints = services.retrieval.candidates.hints
    key = Visibility.of(SearchQuery(agent=agent, text="hiking")).key
    for large in (False, True):  # the tenant's scan, then the full-text index
        hints.mark(key, large=large)
        try:
            hits, meta = keyword_search(client, agent, "hiking trips")
            assert [h["id"] for h in hits] == [hiked], large
            # explain names the question's words, not their stems
            assert meta["keyword_terms"] == ["hiking", "trips"]
            assert hits[0]["explain"]["retrieved"]["keyword_hits"] == ["hiking"]
            assert ids(client, agent, "seat preferences") == [prefers], large
            assert ids(client, agent, "hike") == [hiked], large
        finally:
            hints.mark(key, large=False)

    # A patched text is matched by its new stems, not its old ones.
    patched = client.patch(f"/v1/memories/{hiked}", params={"agent": agent},
                           json={"text": "We climbed Snowdon in the sun"})
    assert patched.status_code == 200, patched.text
    for large in (False, True):
        hints.mark(key, large=large)
        try:
            assert ids(client, agent, "hiking") == [], large
            assert ids(client, agent, "climbing") == [hiked], large
        finally:
            hints.mark(key, large=False)


def test_imported_memories_are_matched_by_their_stems(client, agent):
    client.post("/v1/memories", json={"agent": agent, "text": "The user was running marathons in 2019"})
    lines = [json.loads(line) for line in client.get("/v1/export", params={"agent": agent}).text.splitlines()]
    memories = [{**line, "id": str(uuid.uuid4())} for line in lines if line["kind"] == "memory"]
    assert memories and all("stems" not in line for line in memories)  # derived, never exported
    header = [line for line in lines if line["kind"] == "header"]
    body = "".join(json.dumps(line) + "\n" for line in header + memories)
    copy = f"{agent}-copy"
    imported = client.post("/v1/import", params={"agent": copy}, content=body,
                           headers={"content-type": "application/x-ndjson"})
    assert imported.status_code == 200, imported.text
    assert ids(client, copy, "runs") == [memories[0]["id"]]


def test_a_hits_matched_terms_are_whole_when_a_terms_postings_were_capped(client, services, agent):
    """Each keyword statement lists the terms a hit holds; a term whose postings reached
    CREDENCE_KEYWORD_MAX_K may be held by a hit that does not list it, and then the hit's terms are
    named from its text: explain's keyword_hits and the coverage stay whole."""
    both = client.post("/v1/memories", json={"agent": agent, "text": "A numbat crossed the firebreak"}).json()["id"]
    for text in ("A numbat foraged by the fallen log", "Another numbat dug for termites"):
        client.post("/v1/memories", json={"agent": agent, "text": text})
    candidates = services.retrieval.candidates
    key = Visibility.of(SearchQuery(agent=agent, text="numbat")).key
    cap = candidates.keyword_max_k
    for large, max_k in ((False, cap), (True, cap), (True, 1)):  # the scan, the index, the index capped
        candidates.hints.mark(key, large=large)
        candidates.keyword_max_k = max_k
        try:
            hits, _ = keyword_search(client, agent, "numbats firebreaks")
            assert hits[0]["id"] == both, (large, max_k)
            assert hits[0]["explain"]["retrieved"]["keyword_hits"] == ["numbats", "firebreaks"], (large, max_k)
        finally:
            candidates.hints.mark(key, large=False)
            candidates.keyword_max_k = cap
