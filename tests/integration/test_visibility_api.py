"""Default visibility: active beliefs only; flags open the rest; sessions override globals."""
from __future__ import annotations

from tests.helpers import search


def store(client, agent, text, value, source, **claim_extra):
    response = client.post("/v1/memories", json={
        "agent": agent, "text": text, "provenance": {"source": source},
        "claim": {"subject": "user", "predicate": "budget_is", "value": value, **claim_extra}})
    assert response.status_code in (200, 201), response.text
    return response.json()


def ids(results):
    return {r["id"] for r in results}


def test_flags_open_each_hidden_status(client, agent):
    old = store(client, agent, "Budget is $500", "$500", "document")
    new = store(client, agent, "Budget is $750", "$750", "user_explicit")
    poison = store(client, agent, "Budget is $0", "$0", "inference")
    archived = client.post("/v1/memories", json={"agent": agent, "text": "Budget spreadsheet link"}).json()
    client.delete(f"/v1/memories/{archived['id']}", params={"agent": agent})
    query = "what is the budget"
    assert ids(search(client, agent, query)) == {new["id"]}
    assert ids(search(client, agent, query, include_superseded=True)) == {new["id"], old["id"]}
    assert ids(search(client, agent, query, include_quarantined=True)) == {new["id"], poison["id"]}
    assert ids(search(client, agent, query, status_filter=["superseded"])) == {old["id"]}
    assert ids(search(client, agent, query, statuses=["quarantined"], include_superseded=True)) == \
        {poison["id"], old["id"]}
    assert ids(search(client, agent, query, include_all=True)) == {old["id"], new["id"], poison["id"], archived["id"]}


def test_a_sessions_claims_override_global_ones_only_in_that_session(client, agent):
    glob = store(client, agent, "Budget is $500", "$500", "user_explicit")
    trip = store(client, agent, "For the Lisbon trip the budget is $900", "$900", "user_explicit",
                 scope="session", session_id="trip-lisbon")
    other = store(client, agent, "For the Oslo trip the budget is $300", "$300", "user_explicit",
                  scope="session", session_id="trip-oslo")
    query = "what is the budget"
    assert ids(search(client, agent, query)) == {glob["id"]}
    assert ids(search(client, agent, query, session_id="trip-lisbon")) == {trip["id"]}
    assert ids(search(client, agent, query, session_id="trip-oslo")) == {other["id"]}
    assert ids(search(client, agent, query, session_id="trip-unknown")) == {glob["id"]}
    # Unrelated memories of the tenant are unaffected by the session.
    note = client.post("/v1/memories", json={"agent": agent, "text": "Budget meeting is on Friday"}).json()
    assert note["id"] in ids(search(client, agent, query, session_id="trip-lisbon"))


def test_listing_uses_the_same_flags(client, agent):
    old = store(client, agent, "Budget is $500", "$500", "document")
    new = store(client, agent, "Budget is $750", "$750", "user_explicit")
    poison = store(client, agent, "Budget is $0", "$0", "inference")

    def listed(**params):
        page = client.get("/v1/memories", params={"agent": agent, "limit": 100, **params}).json()
        return {m["id"] for m in page["items"]}

    assert listed() == {new["id"]}
    assert listed(include_superseded=True) == {new["id"], old["id"]}
    assert listed(include_quarantined=True, include_superseded=True) == {new["id"], old["id"], poison["id"]}
    assert listed(status_filter="quarantined") == {poison["id"]}
    assert listed(include_all=True) == {new["id"], old["id"], poison["id"]}


def test_patch_and_archive_are_audited(client, agent):
    memory = client.post("/v1/memories", json={"agent": agent, "text": "draft"}).json()
    client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent}, json={"importance": 0.9},
                 headers={"X-Credence-Actor": "editor"})
    client.delete(f"/v1/memories/{memory['id']}", params={"agent": agent})
    client.delete(f"/v1/memories/{memory['id']}", params={"agent": agent})  # no-op: no second record
    ops = client.get(f"/v1/memories/{memory['id']}/history", params={"agent": agent}).json()["operations"]
    assert [(o["op"], o["actor"]) for o in ops] == [("store", "api"), ("update", "editor"), ("archive", "api")]
    assert ops[1]["after"] == {"importance": 0.9, "version": 2} and ops[2]["before"] == {"status": "active"}
