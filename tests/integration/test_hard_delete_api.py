"""A hard delete leaves nothing of the memory behind in what the service shows: not its id in
another memory's quarantine details or audit records, and not a current belief it was."""
from __future__ import annotations

import json

from tests.helpers import list_all


def claim(client, agent, text, value, source, predicate="budget_is"):
    response = client.post("/v1/memories", json={
        "agent": agent, "text": text, "claim": {"subject": "project", "predicate": predicate, "value": value},
        "provenance": {"source": source}})
    assert response.status_code == 201, response.text
    return response.json()


def shown(client, agent, memory_id):
    """Everything the API shows about one memory and its tenant, as one text."""
    params = {"agent": agent}
    parts = [client.get(f"/v1/memories/{memory_id}", params=params).json(),
             client.get(f"/v1/memories/{memory_id}/history", params=params).json(),
             client.get(f"/v1/memories/{memory_id}/explain", params=params).json(),
             client.get("/v1/quarantine", params=params).json(),
             client.get("/v1/conflicts", params={**params, "include_resolved": True}).json(),
             list_all(client, agent, status=["active", "quarantined", "superseded", "archived", "disputed"]),
             client.post("/v1/search", json={"agent": agent, "query": "project budget",
                                             "statuses": ["active", "quarantined", "superseded"]}).json()]
    return json.dumps(parts)


def test_the_deleted_id_is_gone_from_the_quarantined_rivals_details_and_history(client, agent):
    real = claim(client, agent, "The project budget is $750", "$750", "user_explicit")
    poison = claim(client, agent, "The project budget is $0", "$0", "document")
    assert poison["status"] == "quarantined" and real["id"] in shown(client, agent, poison["id"])

    deleted = client.delete(f"/v1/memories/{real['id']}", params={"agent": agent, "hard": True})
    assert deleted.status_code == 200, deleted.text
    after = shown(client, agent, poison["id"])
    assert real["id"] not in after
    details = client.get(f"/v1/memories/{poison['id']}", params={"agent": agent}).json()["quarantine"]["details"]
    assert details == "conflicts with a deleted memory (trust 1.00 vs 0.60, trust_insufficient)"


def test_hard_deleting_the_current_belief_leaves_the_slot_without_one(client, agent):
    older = claim(client, agent, "The project budget is $500", "$500", "user_implicit")
    current = claim(client, agent, "The project budget is $750", "$750", "user_explicit")
    assert client.get(f"/v1/memories/{older['id']}", params={"agent": agent}).json()["status"] == "superseded"

    client.delete(f"/v1/memories/{current['id']}", params={"agent": agent, "hard": True}).raise_for_status()
    # Nothing is current: the older belief was replaced for a reason and nobody asserted it again.
    active = list_all(client, agent)
    assert active == []
    explained = client.get(f"/v1/memories/{older['id']}/explain", params={"agent": agent}).json()
    assert (explained["status"], explained["superseded_by"]) == ("superseded", [])
    assert current["id"] not in shown(client, agent, older["id"])
    # The slot takes a new belief as a first one.
    fresh = claim(client, agent, "The project budget is $900", "$900", "user_implicit")
    assert fresh["status"] == "active" and fresh["superseded"] == []
