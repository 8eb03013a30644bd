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


def claim(client, agent, subject, predicate, value, source="user_explicit"):
    return store_text(client, agent, f"{subject} {predicate} {value}", provenance={"source": source},
                      claim={"subject": subject, "predicate": predicate, "value": value})


def store_text(client, agent, text, **fields):
    response = client.post("/v1/memories", json={"agent": agent, "text": text, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def test_graph_analyst_queries_answer_on_a_seeded_graph(client, agent, cypher):
    """docs/graph.md's queries: contradiction clusters, a causal chain, the beliefs that changed most."""
    registry = QueryRegistry()
    run = lambda name, **p: cypher(registry[f"analyst/{name}"].text, **p)  # noqa: E731
    # Contradictions: one standing budget, two blocked rivals (a cluster of 3); a city changed 3 times.
    standing = claim(client, agent, "user", "budget_is", "$500")
    blocked = [claim(client, agent, "user", "budget_is", v, source="document") for v in ("$1", "$2")]
    cities = [claim(client, agent, "user", "lives_in", c) for c in ("Porto", "Lisbon", "Madrid", "Paris")]
    claim(client, agent, "user", "drinks", "tea")
    claim(client, agent, "user", "drinks", "coffee")
    # A causal chain: a -> b -> d, c -> d.
    a, b, c, d = (store_text(client, agent, t) for t in ("Storm", "Power cut", "Old cables", "Server down"))
    for x, y in ((a, b), (b, d), (c, d)):
        assert client.post(f"/v1/memories/{x['id']}/links", json={"agent": agent, "type": "CAUSES",
                                                                   "to": y["id"]}).status_code == 201

    clusters = run("contradiction_clusters", agent=agent, open_only=True)
    assert [(k["size"], sorted(m["id"] for m in k["members"])) for k in clusters] == \
        [(3, sorted([standing["id"], *(m["id"] for m in blocked)]))]
    everything = run("contradiction_clusters", agent=agent, open_only=False)
    # Resolved contradictions count too: the supersessions of the city tie its four states together.
    assert [k["size"] for k in everything] == [4, 3, 2]

    chains = run("causal_chain", agent=agent, id=d["id"])
    assert [c_["cause_to_effect"] for c_ in chains] == [["Storm", "Power cut", "Server down"],
                                                        ["Old cables", "Server down"]]
    assert chains[0]["ids"] == [a["id"], b["id"], d["id"]] and chains[0]["links"] == 2
    assert run("causal_chain", agent=agent, id=a["id"]) == []

    changed = run("most_changed_beliefs", agent=agent, limit=2)
    assert [(r["subject"], r["predicate"], r["changes"], r["current"]) for r in changed] == [
        ("user", "lives_in", 3, [cities[-1]["text"]]), ("user", "drinks", 1, ["user drinks coffee"])]


def test_the_docs_quote_every_analyst_query_verbatim():
    docs = {name: (DOC.parent / name).read_text() for name in ("beliefs.md", "graph.md", "entities.md")
            if (DOC.parent / name).exists()}
    registry = QueryRegistry()
    names = [n for n in registry.names() if n.startswith("analyst/")]
    assert {"analyst/contradiction_clusters", "analyst/causal_chain", "analyst/most_changed_beliefs",
            "analyst/supersession_chains", "analyst/pending_conflicts"} <= set(names)
    for name in names:
        assert any(registry[name].text in doc for doc in docs.values()), \
            f"no doc of {sorted(docs)} quotes cypher/{name}.cypher"
