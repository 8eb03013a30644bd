"""Scoped API keys (issue 13, item 5): issued and revoked with the administrator key, stored as a
digest, each covering some agents with a role; every route checks the agents it touches."""
from __future__ import annotations

import hashlib
import uuid
from contextlib import contextmanager

import pytest
from pydantic import SecretStr

from tests.conftest import TEST_ADMIN_KEY
from tests.helpers import assert_problem, store

ADMIN = {"Authorization": f"Bearer {TEST_ADMIN_KEY}"}


def bearer(key: dict) -> dict:
    return {"Authorization": f"Bearer {key['key']}"}


def issue(client, role: str, agents: list[str] = (), pattern: str | None = None) -> dict:
    body = {"name": f"test {role}", "role": role, "agents": list(agents)}
    if pattern is not None:
        body["agent_pattern"] = pattern
    response = client.post("/v1/admin/keys", json=body, headers=ADMIN)
    assert response.status_code == 201, response.text
    return response.json()


def store_as(client, headers: dict, agent: str, text: str) -> dict:
    response = client.post("/v1/memories", json={"agent": agent, "text": text}, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


@contextmanager
def settings(services, **changes):
    """The session's service with other settings for the length of a test."""
    before = services.settings
    services.settings = before.model_copy(update=changes)
    try:
        yield
    finally:
        services.settings = before


def test_keys_are_issued_listed_and_revoked_with_the_admin_key_and_stored_as_a_digest(client, agent, cypher):
    key = issue(client, "write", [agent])
    assert key["key"].startswith("crd_") and key["role"] == "write" and key["agents"] == [agent]
    [node] = cypher("MATCH (k:ApiKey {id: $id}) RETURN properties(k) AS p", id=key["id"])
    assert node["p"]["digest"] == hashlib.sha256(key["key"].encode()).hexdigest()
    assert key["key"] not in {str(v) for v in node["p"].values()}

    listed = client.get("/v1/admin/keys", headers=ADMIN).json()
    [mine] = [k for k in listed["keys"] if k["id"] == key["id"]]
    assert "key" not in mine and "digest" not in mine and mine["revoked_at"] is None
    assert client.get(f"/v1/admin/keys/{key['id']}", headers=ADMIN).json()["name"] == "test write"

    # Only the configured administrator key manages keys: not a scoped key, even an admin-role one.
    boss = issue(client, "admin", [agent])
    for headers in (bearer(key), bearer(boss)):
        assert_problem(client.get("/v1/admin/keys", headers=headers), 403)
        assert_problem(client.post("/v1/admin/keys", json={"name": "x", "role": "admin", "agents": ["a"]},
                                   headers=headers), 403)
    assert_problem(client.get("/v1/admin/keys"), 401)

    revoked = client.delete(f"/v1/admin/keys/{key['id']}", headers=ADMIN)
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    assert_problem(client.delete(f"/v1/admin/keys/{uuid.uuid4()}", headers=ADMIN), 404)
    assert_problem(client.post("/v1/admin/keys", json={"name": "x", "role": "write"}, headers=ADMIN), 422, "agents")
    assert_problem(client.post("/v1/admin/keys", json={"name": "x", "role": "root", "agents": ["a"]},
                               headers=ADMIN), 422, "role")


def test_a_key_reaches_its_agents_and_its_pattern_only(client, agent):
    listed = issue(client, "write", [agent])
    patterned = issue(client, "write", pattern=f"{agent}-team-*")
    store_as(client, bearer(listed), agent, "Listed agent")
    response = client.post("/v1/memories", json={"agent": f"{agent}-team-a", "text": "Pattern agent"},
                           headers=bearer(patterned))
    assert response.status_code == 201, response.text
    for key, other in ((listed, f"{agent}-team-a"), (patterned, agent), (patterned, f"{agent}-other")):
        body = assert_problem(client.post("/v1/memories", json={"agent": other, "text": "x"}, headers=bearer(key)),
                              403)
        assert other in body["detail"]
        assert_problem(client.get("/v1/memories", params={"agent": other}, headers=bearer(key)), 403)
    assert client.get("/v1/memories", params={"agent": other}).json()["count"] == 0  # nothing was written

    # A batch is allowed only when every one of its agents is covered; otherwise nothing is stored.
    mixed = {"memories": [{"agent": agent, "text": "mine"}, {"agent": f"{agent}-x", "text": "not mine"}]}
    assert_problem(client.post("/v1/memories:batch", json=mixed, headers=bearer(listed)), 403)
    assert client.get("/v1/memories", params={"agent": agent}).json()["count"] == 1


def test_roles_read_write_admin(client, agent):
    reader, writer, boss = (issue(client, role, [agent]) for role in ("read", "write", "admin"))
    memory = store(client, agent, "The user's favourite tea is sencha")
    target = f"/v1/memories/{memory['id']}"
    assert client.get(target, params={"agent": agent}, headers=bearer(reader)).status_code == 200
    assert client.post("/v1/search", json={"agent": agent, "query": "tea"}, headers=bearer(reader)).status_code == 200
    assert_problem(client.post("/v1/memories", json={"agent": agent, "text": "x"}, headers=bearer(reader)), 403)
    assert_problem(client.patch(target, params={"agent": agent}, json={"importance": 0.9}, headers=bearer(reader)),
                   403)
    assert_problem(client.delete(target, params={"agent": agent}, headers=bearer(reader)), 403)
    assert_problem(client.post(f"{target}/reinforce", params={"agent": agent}, headers=bearer(reader)), 403)

    # write: changes and archives, but neither hard-deletes nor edits the predicate registry
    assert client.patch(target, params={"agent": agent}, json={"importance": 0.9},
                        headers=bearer(writer)).status_code == 200
    assert_problem(client.delete(target, params={"agent": agent, "hard": "true"}, headers=bearer(writer)), 403)
    assert_problem(client.put("/v1/predicates/likes", params={"agent": agent}, json={"cardinality": "multi"},
                              headers=bearer(writer)), 403)
    assert client.get(target, params={"agent": agent}).json()["status"] == "active"

    assert client.put("/v1/predicates/likes", params={"agent": agent}, json={"cardinality": "multi"},
                      headers=bearer(boss)).status_code == 200
    assert client.delete(target, params={"agent": agent, "hard": "true"}, headers=bearer(boss)).status_code == 200
    assert_problem(client.get(target, params={"agent": agent}), 404)


def test_revocation_takes_effect_on_the_next_request(client, agent):
    key = issue(client, "read", [agent])
    for _ in range(2):  # the second is served from the in-process cache
        assert client.get("/v1/memories", params={"agent": agent}, headers=bearer(key)).status_code == 200
    assert client.delete(f"/v1/admin/keys/{key['id']}", headers=ADMIN).status_code == 200
    assert_problem(client.get("/v1/memories", params={"agent": agent}, headers=bearer(key)), 401)
    assert_problem(client.get("/v1/memories", params={"agent": agent},
                              headers={"Authorization": "Bearer crd_" + "x" * 43}), 401)


def test_a_repeated_agent_query_parameter_is_400(client, agent):
    memory = store(client, agent, "Only mine")
    for path in ("/v1/memories", f"/v1/memories/{memory['id']}"):
        body = assert_problem(client.get(f"{path}?agent={agent}&agent=someone-else"), 400)
        assert "agent" in body["detail"] and body["type"] == "urn:credence:problem:bad-request"
    assert_problem(client.delete(f"/v1/memories/{memory['id']}?agent={agent}&agent={agent}"), 400)
    assert client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()["status"] == "active"


def test_configured_keys_keep_working_and_keys_can_be_required(client, services, agent):
    key = issue(client, "write", [agent])
    with settings(services, require_api_key=True):
        assert_problem(client.get("/v1/memories", params={"agent": agent}), 401)
        # Authentication comes before the body: malformed JSON without a key is 401, not 422.
        response = client.post("/v1/memories", content=b"{not json", headers={"Content-Type": "application/json"})
        assert_problem(response, 401)
        assert client.get("/v1/memories", params={"agent": agent}, headers=bearer(key)).status_code == 200
        assert client.get("/v1/memories", params={"agent": agent}, headers=ADMIN).status_code == 200
        assert client.get("/health").status_code == 200
    with settings(services, api_key=SecretStr("one-tenant-key")):
        assert_problem(client.get("/v1/memories", params={"agent": agent}), 401)
        one = {"Authorization": "Bearer one-tenant-key"}
        memory = store_as(client, one, agent, "Single-key deployments keep every power")
        assert client.delete(f"/v1/memories/{memory['id']}", params={"agent": agent, "hard": "true"},
                             headers=one).status_code == 200
        assert_problem(client.get("/v1/admin/keys", headers=one), 403)  # but not administration


# One request per /v1 operation, naming an agent the key does not cover (OTHER), in the query or
# the body. A route added without a case here fails the test below.
OTHER = "someone-else"
MID = "00000000-0000-4000-8000-000000000000"
CASES = {
    ("post", "/v1/memories"): {"json": {"agent": OTHER, "text": "x"}},
    ("post", "/v1/memories:batch"): {"json": {"memories": [{"agent": OTHER, "text": "x"}]}},
    ("get", "/v1/memories"): {},
    ("get", "/v1/memories/{memory_id}"): {},
    ("patch", "/v1/memories/{memory_id}"): {"json": {"importance": 0.5}},
    ("delete", "/v1/memories/{memory_id}"): {},
    ("get", "/v1/memories/{memory_id}/history"): {},
    ("get", "/v1/audit"): {},
    ("post", "/v1/memories/{memory_id}/links"): {"json": {"agent": OTHER, "type": "SUPPORTS", "to": MID}},
    ("get", "/v1/memories/{memory_id}/links"): {},
    ("delete", "/v1/memories/{memory_id}/links/{link_type}/{to_id}"): {},
    ("post", "/v1/memories/{memory_id}/reinforce"): {},
    ("post", "/v1/memories/{memory_id}/dispute"): {"json": {}},
    ("post", "/v1/memories/{memory_id}/corroborate"): {"json": {"source": {"source": "user"}}},
    ("get", "/v1/conflicts"): {},
    ("post", "/v1/conflicts/{conflict_id}/resolve"): {"json": {"action": "reject"}},
    ("get", "/v1/quarantine"): {},
    ("post", "/v1/memories/{memory_id}/quarantine"): {"json": {}},
    ("post", "/v1/quarantine/{memory_id}/review"): {"json": {"action": "reject"}},
    ("get", "/v1/memories/{memory_id}/explain"): {},
    ("get", "/v1/memories/{memory_id}/explain/supersession"): {},
    ("post", "/v1/search"): {"json": {"agent": OTHER, "query": "x"}},
    ("post", "/v1/search:many"): {"json": {"agent": OTHER, "searches": [{"query": "x"}]}},
    ("post", "/v1/context"): {"json": {"agent": OTHER, "query": "x"}},
    ("put", "/v1/predicates/{predicate}"): {"json": {}},
    ("get", "/v1/predicates/{predicate}"): {},
    ("post", "/v1/predicates"): {"json": {"agent": OTHER, "predicates": [{"predicate": "p"}]}},
    ("get", "/v1/predicates"): {},
    ("get", "/v1/export"): {},
    ("post", "/v1/import"): {"content": b"{}\n"},
    ("get", "/v1/entities"): {},
    ("post", "/v1/entities:merge"): {"json": {"agent": OTHER, "keep": MID, "merge": MID}},
    ("get", "/v1/entities/{entity_id}"): {},
    ("patch", "/v1/entities/{entity_id}"): {"json": {"agent": OTHER}},
    ("get", "/v1/entities/{entity_id}/neighbourhood"): {},
    ("get", "/v1/entities/{entity_id}/path/{to_id}"): {},
    ("get", "/v1/entities/{entity_id}/about"): {},
    ("post", "/v1/jobs"): {"json": {"agent": OTHER, "kind": "expire"}},
    ("get", "/v1/jobs"): {},
    ("get", "/v1/jobs/{job_id}"): {},
    ("post", "/v1/jobs/{job_id}/cancel"): {},
    ("post", "/v1/jobs/{job_id}/retry"): {},
    ("post", "/v1/memories/{memory_id}/restore"): {"json": {}},
    ("post", "/v1/ask"): {"json": {"agent": OTHER, "question": "what do you know about me?"}},
    ("get", "/v1/preferences"): {},
    ("put", "/v1/preferences"): {"json": {"agent": OTHER}},
    ("post", "/v1/consolidate"): {"json": {"agent": OTHER, "dry_run": True}},
    ("post", "/v1/ingest"): {"json": {"agent": OTHER, "text": "I live in Lisbon."}},
}
PATH_VALUES = {"memory_id": MID, "conflict_id": MID, "to_id": MID, "link_type": "SUPPORTS", "predicate": "p",
               "entity_id": MID, "job_id": MID}


def test_every_route_refuses_an_agent_outside_the_key(client, agent):
    key = issue(client, "admin", [agent])  # every role: only the agent can be the reason to refuse
    operations = {(method, path) for path, ops in client.app.openapi()["paths"].items() for method in ops
                  if path.startswith("/v1/") and not path.startswith("/v1/admin/")}
    assert operations - set(CASES) == set(), "a /v1 route is missing from CASES"
    for method, path in sorted(operations):
        case = CASES[(method, path)]
        takes_query_agent = "json" not in case or "agent" not in str(case["json"])
        params = {"agent": OTHER} if takes_query_agent else {}
        url = path.format(**PATH_VALUES)
        response = client.request(method.upper(), url, params=params, headers=bearer(key), **case)
        body = assert_problem(response, 403)
        assert OTHER in body["detail"] and body["type"] == "urn:credence:problem:forbidden", (method, path, body)


@pytest.fixture(autouse=True)
def _no_required_keys_leak(services):
    """Every test here leaves the session service open, as the rest of the suite expects."""
    yield
    assert services.settings.api_key is None and not services.settings.require_api_key


def test_a_key_that_cannot_be_checked_is_503_not_401(client, services, agent):
    """The database is down (as its supervisor reports it): a scoped key cannot be looked up, and
    the caller is told to retry rather than that its key is wrong."""
    key = issue(client, "read", [agent])
    before = services.runner.unavailable
    services.runner.unavailable = lambda: "the embedded database is being restarted"
    try:
        response = client.get("/v1/memories", params={"agent": agent}, headers=bearer(key))
    finally:
        services.runner.unavailable = before
    assert_problem(response, 503)
    assert response.headers["retry-after"]
    assert client.get("/v1/memories", params={"agent": agent}, headers=bearer(key)).status_code == 200


def test_a_key_claims_only_the_sources_it_was_issued_for(client, agent):
    """Trust comes from the claimed source: a key for an agent's own inferences must not be able to
    pass them off as what the user said, and so overwrite the user's beliefs."""
    response = client.post("/v1/admin/keys", headers=ADMIN, json={
        "name": "model", "role": "admin", "agents": [agent], "sources": ["inference", "tool_output"]})
    assert response.status_code == 201, response.text
    model = response.json()
    assert model["sources"] == ["inference", "tool_output"]
    assert issue(client, "write", [agent])["sources"] is None  # not restricted: every source

    said = {"subject": "user", "predicate": "home_city", "value": "Lisbon"}
    user = client.post("/v1/memories", json={"agent": agent, "text": "The user lives in Lisbon", "claim": said,
                                             "provenance": {"source": "user_explicit"}}).json()
    forged = {"agent": agent, "text": "The user lives in Porto", "provenance": {"source": "user_explicit"},
              "claim": {**said, "value": "Porto"}}
    problem = assert_problem(client.post("/v1/memories", json=forged, headers=bearer(model)), 403)
    assert "user_explicit" in problem["detail"] and "inference" in problem["detail"]
    assert_problem(client.post("/v1/memories:batch", headers=bearer(model), json={"memories": [
        {"agent": agent, "text": "A tool said so", "provenance": {"source": "tool_output"}}, forged]}), 403)
    assert_problem(client.post(f"/v1/memories/{user['id']}/corroborate", params={"agent": agent},
                               json={"source": {"source": "system"}}, headers=bearer(model)), 403)
    # An import carries sources past the belief rules, so only an unrestricted key may import; and the
    # model may not review its own quarantined attempt into a belief.
    assert_problem(client.post("/v1/import", params={"agent": agent}, json=[], headers=bearer(model)), 403)
    attempt = client.post("/v1/memories", headers=bearer(model), json={**forged, "provenance": {"source": "inference"}})
    assert attempt.status_code == 201 and attempt.json()["status"] == "quarantined", attempt.text
    [conflict] = client.get("/v1/conflicts", params={"agent": agent}).json()["conflicts"]
    assert_problem(client.post(f"/v1/conflicts/{conflict['id']}/resolve", params={"agent": agent},
                               json={"action": "supersede"}, headers=bearer(model)), 403)
    assert_problem(client.post(f"/v1/quarantine/{attempt.json()['id']}/review", params={"agent": agent},
                               json={"action": "activate"}, headers=bearer(model)), 403)

    listed = client.get("/v1/memories", params={"agent": agent, "include_all": "true"}).json()["items"]
    assert [(m["text"], m["status"]) for m in listed] == [("The user lives in Porto", "quarantined"),
                                                          ("The user lives in Lisbon", "active")]

    # What it may claim it writes, with the default source when it names none.
    allowed = client.post("/v1/memories", headers=bearer(model), json={"agent": agent, "text": "Seems to like tea"})
    assert allowed.status_code == 201 and allowed.json()["source_type"] == "inference"
    assert client.post("/v1/memories", headers=bearer(model), json={
        "agent": agent, "text": "The weather API said rain",
        "provenance": {"source": "tool_output"}}).status_code == 201


def test_a_key_source_list_is_checked(client, agent):
    for sources, field in (([], "sources"), (["gossip"], "sources[0]"), ("inference", "sources")):
        assert_problem(client.post("/v1/admin/keys", headers=ADMIN, json={
            "name": "x", "role": "write", "agents": [agent], "sources": sources}), 422, field)
