"""The Cypher docs/beliefs.md gives analysts runs, returns what it promises, and is quoted verbatim."""
from __future__ import annotations

from pathlib import Path

from graph.store.registry import QueryRegistry

DOC = Path(__file__).resolve().parents[2] / "docs" / "beliefs.md"


def store(client, agent, value, source, **extra):
    response = client.post("/v1/memories", json={
        "agent": agent, "text": f"Budget is {value}", "provenance": {"source": source, **extra},
        "claim": {"subject": "user", "predicate": "budget_is", "value": value}})
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_analyst_queries_run_and_answer(client, agent, cypher):
    registry = QueryRegistry()
    run = lambda name, **p: cypher(registry[f"analyst/{name}"].text, **p)  # noqa: E731
    first = store(client, agent, "$100", "inference")
    second = store(client, agent, "$200", "document")
    third = store(client, agent, "$300", "system")
    blocked = store(client, agent, "$1", "user_implicit")
    client.post(f"/v1/memories/{third['id']}/corroborate", params={"agent": agent},
                json={"source": {"source": "tool_output", "ref": "ledger"}})
    for _ in range(2):
        client.post(f"/v1/memories/{second['id']}/dispute", params={"agent": agent}, json={})

    [chain] = run("supersession_chains", agent=agent, subject="user", predicate="budget_is")
    assert chain["belief"] == third["id"]
    assert chain["newest_to_oldest"] == ["Budget is $300", "Budget is $200", "Budget is $100"]
    assert chain["reasons"] == ["higher_trust", "higher_trust"]

    [pending] = run("pending_conflicts", agent=agent)
    assert (pending["conflict"], pending["blocked_value"], pending["standing_value"]) == \
        (blocked["pending_conflict_id"], "$1", "$300")

    sources = run("belief_sources", agent=agent, id=third["id"])
    assert [(s["source"], s["ref"]) for s in sources] == [("system", ""), ("tool_output", "ledger")]
    assert sources[0]["corroboration"] == 2

    [top] = run("most_disputed", agent=agent, limit=5)
    assert (top["id"], top["disputes"], top["status"]) == (second["id"], 2, "superseded")
    assert first["id"] != top["id"]


def test_the_doc_quotes_every_analyst_query_verbatim():
    doc = DOC.read_text()
    registry = QueryRegistry()
    # The entity graph's analyst queries are quoted in docs/entities.md (test_entity_analyst_cypher.py).
    names = ["analyst/belief_sources", "analyst/most_disputed", "analyst/pending_conflicts",
             "analyst/supersession_chains"]
    for name in names:
        assert registry[name].text in doc, f"docs/beliefs.md does not quote cypher/{name}.cypher"
