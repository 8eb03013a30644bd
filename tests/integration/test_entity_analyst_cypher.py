"""The entity graph's analyst Cypher runs, answers what it promises, agrees with the API's strength,
and is quoted verbatim in docs/entities.md."""
from __future__ import annotations

from pathlib import Path

from graph.core.timeutil import iso, utcnow
from graph.store.registry import QueryRegistry
from tests.integration.test_entities_api import claim, relationships

DOC = Path(__file__).resolve().parents[2] / "docs" / "entities.md"
QUERIES = ("analyst/entity_timeline", "analyst/strongest_relationships")


def test_entity_timeline_and_strongest_relationships(client, agent, cypher):
    registry = QueryRegistry()
    run = lambda name, **p: cypher(registry[f"analyst/{name}"].text, **p)  # noqa: E731
    acme = claim(client, agent, "user", "employer", "Acme", valid_from="2024-01-01T00:00:00Z")
    claim(client, agent, "user", "employer", "Globex", valid_from="2025-06-01T00:00:00Z")
    claim(client, agent, "user", "friend", "Dana", source="inference")
    claim(client, agent, "user", "colleague", "Dana", source="inference")

    timeline = run("entity_timeline", agent=agent, name_key="user")
    assert [(t["type"], t["target"], t["status"]) for t in timeline][:2] == [
        ("works_at", "Acme", "superseded"), ("works_at", "Globex", "active")]
    assert timeline[0]["memory"] == acme["text"] == "user employer Acme"
    assert run("entity_timeline", agent=f"{agent}-nobody", name_key="user") == []

    api = {(r["source"]["name"], r["type"], r["target"]["name"]): r for r in relationships(client, agent, "user")}
    top = run("strongest_relationships", agent=agent, now=iso(utcnow()), limit=10)
    assert len(top) == 3 and [t["strength"] for t in top] == sorted((t["strength"] for t in top), reverse=True)
    for row in top:
        expected = api[(row["source"], row["type"], row["target"])]
        assert abs(row["strength"] - expected["strength"]) < 1e-3
        assert row["mentions"] == expected["mentions"]
    assert {(t["type"], t["target"], t["mentions"]) for t in top} == {
        ("works_at", "Acme", 1), ("works_at", "Globex", 1), ("knows", "Dana", 2)}


def test_the_doc_quotes_every_entity_analyst_query_verbatim():
    doc, registry = DOC.read_text(), QueryRegistry()
    for name in QUERIES:
        assert registry[name].text in doc, f"docs/entities.md does not quote cypher/{name}.cypher"
