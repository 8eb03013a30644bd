"""The saved queries for operators (cypher/operators/, docs/operators.md) run on both backends,
return what they promise on data stored through the HTTP API, are quoted verbatim in the doc, and
pack into the favorites zip Neo4j Browser imports."""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from graph.store.registry import CYPHER_DIR, QueryRegistry

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "operators.md"
NAMES = ["belief_graph", "pending_conflicts", "quarantine_lane", "recent_operations", "supersession_chains"]


@pytest.fixture
def graph(client, services):
    """Like the `cypher` fixture, but keeps nodes, relationships and paths as driver objects."""
    driver, database = services.backend.driver, services.backend.database

    def query(name: str, **params):
        q = QueryRegistry()[f"operators/{name}"]

        async def go():
            records, _, _ = await driver.execute_query(q.text, q.bind(params), database_=database)
            return [dict(record.items()) for record in records]
        return client.portal.call(go)
    return query


def remember(client, agent, text, source=None, claim=None, actor="api", **extra):
    body = {"agent": agent, "text": text, **extra}
    if source:
        body["provenance"] = {"source": source}
    if claim:
        body["claim"] = dict(zip(("subject", "predicate", "value"), claim, strict=True))
    response = client.post("/v1/memories", json=body, headers={"X-Credence-Actor": actor})
    assert response.status_code in (200, 201), response.text
    return response.json()


def hop(path):
    """(relationship type, text or name of the far node) of a one-hop path."""
    [rel] = path.relationships
    return rel.type, path.end_node.get("text", path.end_node.get("name"))


def test_operator_queries_answer_on_data_stored_through_the_api(client, agent, graph):
    first = remember(client, agent, "Budget is $100", "inference", ("user", "budget_is", "$100"))
    second = remember(client, agent, "Budget is $200", "document", ("user", "budget_is", "$200"))
    third = remember(client, agent, "Budget is $300", "system", ("user", "budget_is", "$300"))
    blocked = remember(client, agent, "Budget is $1", "user_implicit", ("user", "budget_is", "$1"))
    lisbon = remember(client, agent, "The user lives in Lisbon", "user_explicit", ("user", "lives_in", "Lisbon"))
    manual = remember(client, agent, "Call the user on Fridays")
    response = client.post(f"/v1/memories/{manual['id']}/quarantine", params={"agent": agent},
                           json={"reason": "manual", "details": "operator check"},
                           headers={"X-Credence-Actor": "ops-test"})
    assert response.status_code == 200, response.text
    assert blocked["status"] == "quarantined" and blocked["pending_conflict_id"]

    rows = graph("belief_graph", agent=agent)
    by_id = {row["memory"]["id"]: row for row in rows}
    assert [row["memory"]["id"] for row in rows] == \
        [m["id"] for m in (manual, lisbon, blocked, third, second, first)]
    assert [by_id[m["id"]]["memory"]["status"] for m in (third, second, first, blocked)] == \
        ["active", "superseded", "superseded", "quarantined"]
    assert sorted(hop(p) for p in by_id[third["id"]]["edges"]) == \
        [("CONTRADICTS", "Budget is $200"), ("SUPERSEDES", "Budget is $200")]
    assert [hop(p) for p in by_id[blocked["id"]]["edges"]] == [("CONTRADICTS", "Budget is $300")]
    assert by_id[first["id"]]["edges"] == []
    claims = by_id[lisbon["id"]]["claims"]
    assert sorted((p.nodes[1]["value"], p.relationships[1]["role"], p.end_node["name"]) for p in claims) == \
        [("Lisbon", "subject", "user"), ("Lisbon", "value", "Lisbon")]
    assert [p.end_node["type"] for p in by_id[third["id"]]["sources"]] == ["system"]
    assert by_id[manual["id"]]["claims"] == [] and by_id[manual["id"]]["edges"] == []

    lane = graph("quarantine_lane", agent=agent)
    assert [(q["id"], q["reason"]) for q in lane] == [(manual["id"], "manual"), (blocked["id"], "trust_insufficient")]
    assert lane[0]["details"] == "operator check" and third["id"] in lane[1]["details"]
    assert lane[0]["challenged"] == [] and lane[0]["subject"] is None
    [challenged] = lane[1]["challenged"]
    assert (lane[1]["predicate"], lane[1]["value"]) == ("budget_is", "$1")
    assert (challenged["id"], challenged["text"], challenged["status"], challenged["conflict"],
            challenged["conflict_status"]) == \
        (third["id"], "Budget is $300", "active", blocked["pending_conflict_id"], "pending")

    [pending] = graph("pending_conflicts", agent=agent)
    assert (pending["conflict"], pending["blocked_text"], pending["standing_text"]) == \
        (blocked["pending_conflict_id"], "Budget is $1", "Budget is $300")
    assert pending["blocked_trust"] < pending["standing_trust"]
    assert [n.get("text", n.get("value")) for n in pending["blocked"].nodes][1:] == ["Budget is $1", "$1"]
    assert [n.get("text", n.get("value")) for n in pending["standing"].nodes][1:] == ["Budget is $300", "$300"]
    assert [hop(p) for p in pending["contradicts"]] == [("CONTRADICTS", "Budget is $300")]

    chains = graph("supersession_chains", agent=agent, subject="user")
    assert [(c["predicate"], c["status"], c["newest_to_oldest"], c["reasons"]) for c in chains] == [
        ("budget_is", "quarantined", ["Budget is $1"], []),
        ("budget_is", "active", ["Budget is $300", "Budget is $200", "Budget is $100"],
         ["higher_trust", "higher_trust"]),
        ("lives_in", "active", ["The user lives in Lisbon"], []),
    ]
    assert [n["id"] for n in chains[1]["chain"].nodes] == [third["id"], second["id"], first["id"]]
    assert graph("supersession_chains", agent=agent, subject="nobody") == []

    operations = graph("recent_operations", agent=agent)
    newest = operations[0]
    assert (newest["op"], newest["actor"]) == ("quarantine", "ops-test")
    assert [(m["id"], m["status"]) for m in newest["memories"]] == [(manual["id"], "quarantined")]
    assert {"store", "supersede", "quarantine"} <= {o["op"] for o in operations}
    assert [o["at"] for o in operations] == sorted((o["at"] for o in operations), reverse=True)

    other = f"{agent}-other"
    assert all(graph(name, agent=other, **({"subject": "user"} if name == "supersession_chains" else {})) == []
               for name in NAMES)


def test_the_doc_quotes_every_operator_query_verbatim():
    doc = DOC.read_text()
    names = [n.removeprefix("operators/") for n in QueryRegistry().names() if n.startswith("operators/")]
    assert names == NAMES
    for name in names:
        assert (CYPHER_DIR / "operators" / f"{name}.cypher").read_text() in doc, \
            f"docs/operators.md does not quote cypher/operators/{name}.cypher whole"


def test_favorites_zip_holds_every_operator_file_verbatim(tmp_path):
    sys.path.insert(0, str(ROOT / "tools" / "browser"))
    try:
        import favorites
    finally:
        sys.path.pop(0)
    out = tmp_path / "credence-operators.zip"
    assert favorites.main([str(out)]) == 0
    with zipfile.ZipFile(out) as zf:
        entries = {name: zf.read(name).decode() for name in zf.namelist()}
    assert entries == {f"Credence operators/{n}.cypher": (CYPHER_DIR / "operators" / f"{n}.cypher").read_text()
                       for n in NAMES}
    # Browser names a favorite after its first line, without the leading `//`.
    assert all(text.startswith("// ") and len(text.splitlines()[0]) <= 60 for text in entries.values())
