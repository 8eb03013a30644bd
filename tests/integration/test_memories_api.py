"""Storing, reading, listing, patching and deleting memories through the HTTP API."""
from __future__ import annotations

import uuid

from tests.helpers import assert_problem, list_all, search, store, store_many


def test_store_returns_the_stored_memory_and_get_reads_it_back(client, agent):
    body = {"agent": agent, "text": "The user's favourite editor is Helix", "memory_type": "preference",
            "category": "tools", "importance": 0.8, "tags": ["editor", "editor", "cli"],
            "event_at": "2026-03-01T09:30:00+01:00", "metadata": {"origin": "chat", "turn": 7}}
    response = client.post("/v1/memories", json=body)
    assert response.status_code == 201, response.text
    stored = response.json()
    uuid.UUID(stored["id"])
    assert response.headers["location"] == f"/v1/memories/{stored['id']}?agent={agent}"
    plus = client.post("/v1/memories", json={"agent": "team+bot", "text": "x"})
    assert client.get(plus.headers["location"]).json()["id"] == plus.json()["id"]
    assert stored["status"] == "active" and stored["version"] == 1
    assert stored["tags"] == ["editor", "cli"]
    assert stored["event_at"] == "2026-03-01T08:30:00Z"
    assert stored["metadata"] == {"origin": "chat", "turn": 7}
    assert stored["created_at"] == stored["updated_at"]

    assert (stored["deduplicated"], stored["superseded"], stored["quarantined"], stored["conflicts"]) == \
        (False, [], False, [])
    fetched = client.get(f"/v1/memories/{stored['id']}", params={"agent": agent}).json()
    write_outcome = {"deduplicated", "superseded", "quarantined", "pending_conflict_id", "conflicts", "redacted"}
    assert fetched == {k: v for k, v in stored.items() if k not in write_outcome}


def test_defaults_apply_when_fields_are_omitted(client, agent):
    stored = store(client, agent, "Bare memory")
    assert (stored["memory_type"], stored["importance"], stored["tags"], stored["category"],
            stored["metadata"], stored["event_at"]) == ("fact", 0.5, [], None, None, None)


def test_unknown_id_is_404_and_another_tenants_memory_is_invisible(client, agent):
    mine = store(client, agent, "Agent one's secret plan")
    assert_problem(client.get(f"/v1/memories/{uuid.uuid4()}", params={"agent": agent}), 404)
    other = f"{agent}-other"
    assert_problem(client.get(f"/v1/memories/{mine['id']}", params={"agent": other}), 404)
    assert_problem(client.patch(f"/v1/memories/{mine['id']}", params={"agent": other}, json={"importance": 0.1}), 404)
    assert_problem(client.delete(f"/v1/memories/{mine['id']}", params={"agent": other}), 404)
    assert_problem(client.delete(f"/v1/memories/{mine['id']}", params={"agent": other, "hard": True}), 404)
    assert list_all(client, other) == []
    # The failed attempts changed nothing.
    assert client.get(f"/v1/memories/{mine['id']}", params={"agent": agent}).json()["version"] == 1


def test_list_pages_newest_first_in_a_stable_order(client, agent):
    first = store(client, agent, "first")
    batch = store_many(client, agent, [f"batch item {i}" for i in range(7)])  # one timestamp, ties by id
    last = store(client, agent, "last")
    seen, cursor = [], None
    while True:
        params = {"agent": agent, "limit": 3, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/memories", params=params).json()
        assert page["count"] == len(page["items"]) <= 3
        seen += [m["id"] for m in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    tied = sorted((m["id"] for m in batch), reverse=True)
    assert seen == [last["id"], *tied, first["id"]]
    # One big page (list_all asks for 200) gives the same order as pages of 3.
    assert [m["id"] for m in list_all(client, agent)] == [last["id"], *tied, first["id"]]


def test_list_filters_by_memory_type_and_status(client, agent):
    pref = store(client, agent, "Likes green tea", memory_type="preference")
    fact = store(client, agent, "Works in Lisbon")
    client.delete(f"/v1/memories/{fact['id']}", params={"agent": agent})
    ids = lambda **p: [m["id"] for m in list_all(client, agent, **p)]  # noqa: E731
    assert ids() == [pref["id"]]
    assert ids(memory_type="fact") == []
    assert ids(status="archived") == [fact["id"]]
    assert set(ids(status=["active", "archived"])) == {pref["id"], fact["id"]}


def test_bad_cursor_is_422(client, agent):
    assert_problem(client.get("/v1/memories", params={"agent": agent, "cursor": "not-a-cursor"}), 422, "cursor")


def test_patch_changes_fields_bumps_version_and_reembeds_text(client, agent):
    memory = store(client, agent, "The user lives in Berlin", tags=["home"], event_at="2026-01-01T00:00:00Z")
    store(client, agent, "The user enjoys sailing on weekends")
    # Relevance order (rerank off): what the embedding answers, which is what a PATCH of the text changes.
    assert search(client, agent, "Which city is home?", rerank=False)[0]["id"] == memory["id"]

    response = client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                            json={"text": "The user adopted a golden retriever puppy", "importance": 0.9,
                                  "event_at": None, "expected_version": 1})
    assert response.status_code == 200, response.text
    patched = response.json()
    assert patched["version"] == 2 and patched["importance"] == 0.9 and patched["event_at"] is None
    assert patched["tags"] == ["home"] and patched["created_at"] == memory["created_at"]
    assert patched["updated_at"] > memory["updated_at"]
    # The new embedding answers the new question; the old text is gone.
    assert search(client, agent, "what pet does the user have?", rerank=False)[0]["id"] == memory["id"]
    # Access counts flush in the background (every 0.2 s here), so they may move between the two reads;
    # what the patch redacted is the write's report, not part of the memory.
    bookkeeping = ("access_count", "last_accessed_at", "redacted")
    got = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert {k: v for k, v in got.items() if k not in bookkeeping} == \
        {k: v for k, v in patched.items() if k not in bookkeeping}


def test_patch_with_a_stale_version_is_409_and_changes_nothing(client, agent):
    memory = store(client, agent, "Prefers tabs")
    client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent}, json={"text": "Prefers spaces"})
    response = client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                            json={"text": "Prefers tabs again", "expected_version": 1})
    assert assert_problem(response, 409)["current_version"] == 2
    current = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert (current["text"], current["version"]) == ("Prefers spaces", 2)


def test_patch_rejects_empty_and_null_changes(client, agent):
    memory = store(client, agent, "Something")
    url = f"/v1/memories/{memory['id']}"
    assert_problem(client.patch(url, params={"agent": agent}, json={}), 422)
    assert_problem(client.patch(url, params={"agent": agent}, json={"text": None}), 422)
    assert_problem(client.patch(url, params={"agent": agent}, json={"text": "  \n "}), 422, "text")
    assert_problem(client.patch(url, params={"agent": agent}, json={"status": "archived"}), 422, "status")
    assert client.get(url, params={"agent": agent}).json()["version"] == 1


def test_delete_archives_and_hides_by_default(client, agent):
    memory = store(client, agent, "Temporary note about the staging server")
    response = client.delete(f"/v1/memories/{memory['id']}", params={"agent": agent})
    assert response.status_code == 200
    archived = response.json()
    assert archived["status"] == "archived" and archived["version"] == 2
    assert list_all(client, agent) == []
    assert search(client, agent, "staging server") == []
    assert [m["id"] for m in search(client, agent, "staging server", statuses=["archived"])] == [memory["id"]]
    # Still readable by id, and archiving again is a no-op.
    again = client.delete(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert again["version"] == 2


def test_hard_delete_removes_the_memory_and_what_only_it_referenced(client, agent, services, run):
    doomed = store(client, agent, "User's passport number is X123")
    keeper = store(client, agent, "User travels often")
    # Provenance-like neighbours: one private to the doomed memory (with a child of its own),
    # one shared with another memory. Only the private ones may go.
    driver, db = services.backend.driver, services.backend.database

    async def link():
        await driver.execute_query(
            "MATCH (d:Memory {id: $d}), (k:Memory {id: $k}) "
            "CREATE (d)-[:ASSERTS]->(c:Claim {agent: $a, subject: 'user'})"
            "-[:ABOUT]->(e:Entity {agent: $a, name: 'passport'}) "
            "CREATE (s:Source {agent: $a, type: 'document'}) CREATE (d)-[:FROM]->(s), (k)-[:FROM]->(s)",
            {"d": doomed["id"], "k": keeper["id"], "a": agent}, database_=db)

    async def count_nodes():
        records, _, _ = await driver.execute_query(
            "MATCH (n {agent: $a}) RETURN labels(n)[0] AS label, count(*) AS n", {"a": agent}, database_=db)
        return {r["label"]: r["n"] for r in records}

    run(link)
    # Each memory also cites the default inference source and has its store audit record.
    assert run(count_nodes) == {"Memory": 2, "Claim": 1, "Entity": 1, "Source": 2, "Operation": 2}
    response = client.delete(f"/v1/memories/{doomed['id']}", params={"agent": agent, "hard": True})
    assert response.status_code == 200, response.text
    assert response.json() == {"id": doomed["id"], "deleted": True, "related_nodes_removed": 2}
    # Shared sources stay; its own audit record goes; the deletion itself is recorded.
    assert run(count_nodes) == {"Memory": 1, "Source": 2, "Operation": 2}
    assert_problem(client.get(f"/v1/memories/{doomed['id']}", params={"agent": agent}), 404)
    assert search(client, agent, "passport number", statuses=["active", "archived"])[0]["id"] == keeper["id"]
    assert_problem(client.delete(f"/v1/memories/{doomed['id']}", params={"agent": agent, "hard": True}), 404)


def test_an_expected_version_past_the_graphs_integers_is_422_not_500(client, agent):
    """Found by schemathesis: 2**70 reached the driver, which cannot pack it (OverflowError, 500)."""
    memory = store(client, agent, "The user lives in Berlin")
    for too_big in (2**63, 2**70):
        response = client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                                json={"text": "The user lives in Bonn", "expected_version": too_big})
        assert_problem(response, 422, "expected_version")
    assert client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()["text"] == memory["text"]
