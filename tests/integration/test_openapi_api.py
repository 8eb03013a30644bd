"""The OpenAPI document tells the truth (issue 13, item 9): every error a route answers is documented
as application/problem+json, 405 names every method of the path, and where the schema and the
server could disagree (empty text, empty patch, null on a patch, the cursor, date-times given as
numbers, self-links, a deduplicated store) they agree."""
from __future__ import annotations

import uuid

import pytest

from tests.conftest import TEST_ADMIN_KEY
from tests.helpers import assert_problem, store

PROBLEM_STATUSES = ("400", "401", "403", "404", "405", "409", "413", "422", "503")
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def openapi(client) -> dict:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.json()


def operations(document: dict):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_every_v1_operation_documents_its_problems(openapi):
    assert "Problem" in openapi["components"]["schemas"]
    v1 = [(p, m, o) for p, m, o in operations(openapi) if p.startswith("/v1/")]
    assert len(v1) > 20
    for path, method, operation in v1:
        for status in PROBLEM_STATUSES:
            response = operation["responses"].get(status)
            assert response, f"{method.upper()} {path} does not document {status}"
            assert list(response["content"]) == ["application/problem+json"], (path, method, status)
            assert response["content"]["application/problem+json"]["schema"] == {"$ref": "#/components/schemas/Problem"}
        assert "Allow" in operation["responses"]["405"]["headers"]
        assert "Retry-After" in operation["responses"]["503"]["headers"]
    ready = openapi["paths"]["/ready"]["get"]["responses"]
    assert "application/problem+json" in ready["503"]["content"]
    # FastAPI's own validation error shape is never sent, so it is not documented.
    assert "HTTPValidationError" not in openapi["components"]["schemas"]


def _concrete(path: str) -> str:
    values = {"link_type": "SUPPORTS", "predicate": "likes"}
    for part in path.split("/"):
        if part.startswith("{"):
            name = part[1:-1]
            path = path.replace(part, values.get(name, str(uuid.uuid4())))
    return path


def test_405_allow_lists_every_method_the_path_takes(client, openapi, agent):
    for path, item in openapi["paths"].items():
        documented = {m.upper() for m in item if m in METHODS}
        missing = [m for m in ("PUT", "PATCH", "DELETE", "POST", "GET") if m not in documented]
        if not missing:
            continue
        headers = {"Authorization": f"Bearer {TEST_ADMIN_KEY}"} if path.startswith("/v1/admin") else {}
        response = client.request(missing[0], _concrete(path), params={"agent": agent}, headers=headers)
        body = assert_problem(response, 405)
        allowed = set(response.headers["allow"].split(", ")) - {"HEAD"}
        assert allowed == documented, (path, allowed, documented, body)


def test_405_on_a_path_several_routes_share(client):
    response = client.put("/v1/memories", json={})
    assert_problem(response, 405)
    assert {"GET", "POST"} <= set(response.headers["allow"].split(", "))


def _schema(openapi: dict, name: str) -> dict:
    schemas = openapi["components"]["schemas"]
    return schemas.get(name) or schemas[f"{name}-Input"]


def test_empty_text_is_refused_by_both(client, openapi, agent):
    text = _schema(openapi, "MemoryCreate")["properties"]["text"]
    assert text["minLength"] == 1 and text["pattern"] == "\\S"
    for value in ("", "   "):
        assert_problem(client.post("/v1/memories", json={"agent": agent, "text": value}), 422, "text")


def test_an_empty_or_null_patch_is_refused_by_both(client, openapi, agent):
    schema = _schema(openapi, "MemoryUpdate")
    assert {tuple(branch["required"]) for branch in schema["anyOf"]} == {
        ("text",), ("memory_type",), ("category",), ("importance",), ("tags",), ("event_at",), ("metadata",),
        ("sensitivity",), ("effective_from",), ("expires_at",), ("recurrence",), ("historical",)}
    for name in ("text", "memory_type", "importance", "tags", "sensitivity", "historical"):
        prop = schema["properties"][name]
        assert "anyOf" not in prop and prop.get("type") != "null", name
    for name in ("category", "event_at", "metadata", "effective_from", "expires_at", "recurrence"):
        assert {"type": "null"} in schema["properties"][name]["anyOf"], name
    memory = store(client, agent, "The user prefers tea")
    url = f"/v1/memories/{memory['id']}"
    assert_problem(client.patch(url, params={"agent": agent}, json={}), 422)
    assert_problem(client.patch(url, params={"agent": agent}, json={"expected_version": 1}), 422)
    assert_problem(client.patch(url, params={"agent": agent}, json={"text": None}), 422)
    assert client.patch(url, params={"agent": agent}, json={"category": None}).status_code == 200


def test_the_cursor_format_is_documented_and_enforced(client, openapi, agent):
    for path in ("/v1/memories", "/v1/quarantine"):
        [cursor] = [p for p in openapi["paths"][path]["get"]["parameters"] if p["name"] == "cursor"]
        pattern = cursor["schema"]["anyOf"][0]["pattern"]
        assert pattern == "^[A-Za-z0-9_-]+$"
        assert_problem(client.get(path, params={"agent": agent, "cursor": "a+b/c="}), 422, "cursor")


@pytest.mark.parametrize("name", ["after", "before", "as_of"])
def test_date_times_are_strings_in_the_schema_and_on_the_server(client, openapi, agent, name):
    prop = _schema(openapi, "SearchRequest")["properties"][name]
    assert {"type": "string", "format": "date-time"} in prop["anyOf"]
    for value in (1_700_000_000, 1.7e9, "1700000000", True):
        assert_problem(client.post("/v1/search", json={"agent": agent, "query": "tea", name: value}), 422, name)
    ok = client.post("/v1/search", json={"agent": agent, "query": "tea", name: "2024-05-01T12:00:00Z"})
    assert ok.status_code == 200, ok.text


def test_event_at_is_a_string_too(client, agent):
    assert_problem(client.post("/v1/memories", json={"agent": agent, "text": "x", "event_at": 1_700_000_000}),
                   422, "event_at")


def test_a_self_link_is_refused_and_the_schema_says_so(client, openapi, agent):
    assert "itself" in _schema(openapi, "LinkCreate")["properties"]["to"]["description"]
    memory = store(client, agent, "The user prefers tea")
    response = client.post(f"/v1/memories/{memory['id']}/links",
                           json={"agent": agent, "type": "SUPPORTS", "to": memory["id"]})
    assert_problem(response, 422, "to")


def test_a_deduplicated_store_answers_a_documented_200(client, openapi, agent):
    assert "200" in openapi["paths"]["/v1/memories"]["post"]["responses"]
    claim = {"subject": "user", "predicate": "likes", "value": "tea"}
    store(client, agent, "The user likes tea", claim=claim)
    again = client.post("/v1/memories", json={"agent": agent, "text": "The user likes tea", "claim": claim})
    assert again.status_code == 200 and again.json()["deduplicated"] is True


def test_writes_document_the_idempotency_key_header_and_reads_do_not(openapi):
    keyed = {(method.upper(), path) for path, method, operation in operations(openapi)
             for parameter in operation.get("parameters", [])
             if parameter["in"] == "header" and parameter["name"] == "Idempotency-Key"}
    assert {("POST", "/v1/memories"), ("POST", "/v1/memories:batch"), ("PATCH", "/v1/memories/{memory_id}"),
            ("DELETE", "/v1/memories/{memory_id}"), ("POST", "/v1/memories/{memory_id}/reinforce"),
            ("POST", "/v1/import"), ("PUT", "/v1/predicates/{predicate}")} <= keyed
    for method, path in keyed:
        assert method != "GET" and not path.startswith("/v1/admin/"), (method, path)
    assert not keyed & {("POST", "/v1/search"), ("POST", "/v1/search:many"), ("POST", "/v1/context")}


def test_a_documented_idempotency_key_is_replayed(client, openapi, agent):
    parameter = next(p for p in openapi["paths"]["/v1/memories"]["post"]["parameters"]
                     if p["name"] == "Idempotency-Key")
    assert parameter["schema"]["maxLength"] == 255
    body = {"agent": agent, "text": "The user prefers window seats"}
    first = client.post("/v1/memories", json=body, headers={"Idempotency-Key": "seat-1"})
    again = client.post("/v1/memories", json=body, headers={"Idempotency-Key": "seat-1"})
    assert first.status_code == 201 and again.status_code == 201
    assert again.json()["id"] == first.json()["id"] and again.headers["Idempotent-Replayed"] == "true"
