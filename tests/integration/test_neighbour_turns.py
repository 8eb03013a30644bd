"""A search hit brings the conversation turns around it (graph/retrieval/neighbours.py), through
the API on both backends: the answer that shares no word with the question ranks beside the turn
that asked it, explain says which hit brought it, hidden turns are neither returned nor walked
through, and nothing crosses tenants."""
from __future__ import annotations

from graph.retrieval.model import SearchQuery
from graph.retrieval.visibility import Visibility

CHAT = ["Alice: did you and Sam ever make it to the aquarium in Lisbon?",
        "Bob: Yes! It was amazing, we went there twice",
        "Bob: the second time with my parents",
        "Alice: I should go in spring then",
        "Bob: definitely"]
FILLER = ["Carol: the quarterly budget review moved to Thursday", "Dan: my cat knocked the plant over again",
          "Erin: the train to Porto was late by forty minutes", "Frank: we repainted the kitchen green",
          "Gina: my tennis lessons start next week", "Hugo: the new laptop arrived without a charger"]


def store_chat(client, agent, thread="trip"):
    response = client.post("/v1/memories:batch", json={"memories": [
        {"agent": agent, "text": t, "thread": thread, "event_at": f"2026-03-0{i + 1}T10:00:00Z"}
        for i, t in enumerate(CHAT)] + [{"agent": agent, "text": t} for t in FILLER]})
    assert response.status_code == 201, response.text
    return [m["id"] for m in response.json()["memories"]]


def search(client, agent, **extra):
    response = client.post("/v1/search", json={"agent": agent, "query": "Was the Lisbon aquarium any good?",
                                               "limit": 3, "explain": True, **extra})
    assert response.status_code == 200, response.text
    return response.json()["results"]


def test_the_turns_after_a_hit_come_with_it_and_explain_says_why(client, agent, services, run):
    ids = store_chat(client, agent)
    hits = search(client, agent)
    order = [h["id"] for h in hits]
    assert order[0] == ids[0], [h["text"] for h in hits]
    # The answer shares no content word with the question; it ranks next to the turn that asked.
    assert order[1:3] == [ids[1], ids[2]], [h["text"] for h in hits]
    lifted = {h["id"]: h for h in hits}
    assert lifted[ids[1]]["explain"]["retrieved"]["neighbour_of"] == ids[0]
    assert lifted[ids[2]]["explain"]["retrieved"]["neighbour_of"] == ids[0]
    assert lifted[ids[0]]["explain"]["retrieved"]["neighbour_of"] is None
    # One step away ranks with 0.9 of the hit's relevance, two steps with 0.81, unless its own is higher.
    top = hits[0]["score"]
    assert lifted[ids[1]]["score"] >= round(0.9 * top, 9) - 1e-9
    assert lifted[ids[2]]["score"] >= round(0.81 * top, 9) - 1e-9

    # Without the lift (CREDENCE_NEIGHBOUR_LIFT=0) the answer does not make the top 3.
    retrieval = services.retrieval
    off = replace_lift(retrieval, 0.0)
    try:
        plain = run(retrieval.search, SearchQuery(agent=agent, text="Was the Lisbon aquarium any good?", limit=3))
    finally:
        replace_lift(retrieval, off)
    assert ids[1] not in [h.memory.id for h in plain.hits]


def replace_lift(retrieval, value: float) -> float:
    before, retrieval.neighbour_lift = retrieval.neighbour_lift, value
    return before


def test_hidden_turns_are_neither_returned_nor_walked_through(client, agent):
    ids = store_chat(client, agent)
    archived = client.delete(f"/v1/memories/{ids[1]}", params={"agent": agent})
    assert archived.status_code == 200, archived.text
    order = [h["id"] for h in search(client, agent)]
    assert ids[1] not in order and ids[2] not in order  # the turn after it is reached only through it
    # Shown again when the request shows archived memories: then it is walked through too.
    order = [h["id"] for h in search(client, agent, statuses=["active", "archived"])]
    assert order[:3] == ids[:3]


def test_no_turn_of_another_tenant_is_reached(client, agent, services, run):
    theirs = store_chat(client, f"{agent}-b")  # the same thread id, another tenant
    mine = store_chat(client, agent)
    order = [h["id"] for h in search(client, agent, limit=20)]
    assert not set(order) & set(theirs) and set(order) <= set(mine)
    # The query itself, asked from another tenant's hits, reaches nothing.
    shown = Visibility.of(SearchQuery(agent=agent, text="x"))
    params = {k: v for k, v in shown.params().items() if k != "explain"}
    embedding = run(services.retrieval.embed, "aquarium")

    def reach(ids):
        return run(lambda: services.runner.read("retrieval/neighbours", ids=ids, embedding=embedding, **params))
    assert reach(theirs[:2]) == []
    rows = reach(mine[:1])
    assert sorted((r["id"], r["steps"]) for r in rows) == sorted([(mine[1], 1), (mine[2], 2)])
