"""The predicate schema registry through the API (PRD v0.8.1 feature 7)."""
from __future__ import annotations

import pytest

from tests.helpers import assert_problem, list_all


def put(client, agent, predicate, **schema):
    response = client.put(f"/v1/predicates/{predicate}", params={"agent": agent}, json=schema)
    assert response.status_code == 200, response.text
    return response.json()


def store(client, agent, value, predicate, source="document", **extra):
    response = client.post("/v1/memories", json={
        "agent": agent, "text": f"{predicate} {value}", "provenance": {"source": source},
        "claim": {"subject": "user", "predicate": predicate, "value": value, **extra}})
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_the_registry_stores_and_returns_schemas_and_defaults_apply_otherwise(client, agent):
    stored = put(client, agent, "likes", cardinality="multi", conflict_policy="keep_both", normalize="lowercase_trim")
    assert stored["registered"] is True and stored["cardinality"] == "multi"
    got = client.get("/v1/predicates/likes", params={"agent": agent}).json()
    assert got == stored
    default = client.get("/v1/predicates/budget_is", params={"agent": agent}).json()
    assert default == {"predicate": "budget_is", "cardinality": "single", "conflict_policy": "supersede",
                       "normalize": "none", "dedup_policy": "corroborate", "registered": False, "updated_at": None}
    # Another tenant sees only defaults.
    assert client.get("/v1/predicates/likes", params={"agent": f"{agent}-b"}).json()["registered"] is False


def test_bulk_registration_and_listing(client, agent):
    response = client.post("/v1/predicates", json={"agent": agent, "predicates": [
        {"predicate": "budget_is", "normalize": "currency"},
        {"predicate": "likes", "cardinality": "multi", "conflict_policy": "keep_both"}]})
    assert response.status_code == 200, response.text
    listed = client.get("/v1/predicates", params={"agent": agent}).json()
    assert [p["predicate"] for p in listed["predicates"]] == ["budget_is", "likes"] and listed["count"] == 2
    put(client, agent, "likes", cardinality="single")
    assert client.get("/v1/predicates/likes", params={"agent": agent}).json()["cardinality"] == "single"


@pytest.mark.parametrize("schema, field", [
    ({"cardinality": "many"}, "cardinality"), ({"conflict_policy": "ignore"}, "conflict_policy"),
    ({"normalize": "uppercase"}, "normalize"), ({"dedup_policy": "drop"}, "dedup_policy"), ({"x": 1}, "x"),
])
def test_an_invalid_schema_is_422(client, agent, schema, field):
    assert_problem(client.put("/v1/predicates/likes", params={"agent": agent}, json=schema), 422, field)
    assert client.get("/v1/predicates", params={"agent": agent}).json()["count"] == 0


def test_bulk_with_a_repeated_predicate_is_422(client, agent):
    body = {"agent": agent, "predicates": [{"predicate": "a"}, {"predicate": "a", "cardinality": "multi"}]}
    assert_problem(client.post("/v1/predicates", json=body), 422, "predicates")


def test_multi_cardinality_values_coexist_and_duplicates_corroborate(client, agent):
    put(client, agent, "likes", cardinality="multi", conflict_policy="keep_both", normalize="lowercase_trim")
    jazz = store(client, agent, "Jazz", "likes")
    techno = store(client, agent, "techno", "likes", source="user_explicit")
    assert techno["conflicts"] == [] and techno["superseded"] == []
    again = store(client, agent, "  jazz ", "likes", source="tool_output")
    assert again["deduplicated"] and again["id"] == jazz["id"] and again["corroboration"] == 2
    assert len(list_all(client, agent)) == 2


def test_require_review_always_quarantines_with_a_pending_conflict(client, agent):
    put(client, agent, "prefers_seat", conflict_policy="require_review", normalize="lowercase_trim")
    aisle = store(client, agent, "aisle", "prefers_seat", source="document")
    window = store(client, agent, "window", "prefers_seat", source="user_explicit")
    assert window["status"] == "quarantined" and window["quarantine"]["reason"] == "predicate_requires_review"
    assert window["pending_conflict_id"] and window["superseded"] == []
    assert [m["id"] for m in list_all(client, agent)] == [aisle["id"]]


def test_keep_both_keeps_both_active_and_records_the_conflict_as_resolved(client, agent, cypher):
    put(client, agent, "nickname", conflict_policy="keep_both")
    first = store(client, agent, "Bob", "nickname")
    second = store(client, agent, "Bobby", "nickname")
    assert second["status"] == "active" and second["superseded"] == [] and second["pending_conflict_id"] is None
    [conflict] = cypher("MATCH (c:Conflict {id: $id}) RETURN c.status AS status, c.resolution AS resolution",
                        id=second["conflicts"][0])
    assert conflict == {"status": "resolved", "resolution": "keep_both"}
    assert {m["id"] for m in list_all(client, agent)} == {first["id"], second["id"]}


@pytest.mark.parametrize("normalizer, first, second", [
    ("lowercase_trim", "Seattle", " seattle "), ("currency", "$750", "750 USD"), ("currency", "USD 750", "$750.00"),
    ("trim", "Paris ", " Paris"), ("lowercase", "OSLO", "oslo"),
])
def test_normalised_values_dedup(client, agent, normalizer, first, second):
    put(client, agent, "city_or_budget", normalize=normalizer)
    a = store(client, agent, first, "city_or_budget")
    b = store(client, agent, second, "city_or_budget", source="tool_output")
    assert b["deduplicated"] and b["id"] == a["id"]


def test_without_a_normaliser_case_differences_conflict(client, agent):
    a = store(client, agent, "Seattle", "lives_in")
    b = store(client, agent, "seattle", "lives_in")
    assert b["deduplicated"] is False and b["superseded"] == [a["id"]]


def test_dedup_policy_store_keeps_separate_nodes(client, agent):
    put(client, agent, "mentions", cardinality="multi", dedup_policy="store")
    a = store(client, agent, "budget", "mentions")
    b = store(client, agent, "budget", "mentions")
    assert b["deduplicated"] is False and a["id"] != b["id"] and len(list_all(client, agent)) == 2
