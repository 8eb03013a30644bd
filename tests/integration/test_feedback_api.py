"""Reinforce, dispute and corroborate through the API (PRD v0.8 feature 2 feedback tests)."""
from __future__ import annotations

import uuid

import pytest

from tests.helpers import assert_problem, search


def store(client, agent, text, source="inference"):
    response = client.post("/v1/memories", json={"agent": agent, "text": text, "provenance": {"source": source}})
    assert response.status_code == 201, response.text
    return response.json()


def act(client, agent, memory_id, action, body=None, status=200):
    response = client.post(f"/v1/memories/{memory_id}/{action}", params={"agent": agent}, json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_reinforce_counts_and_raises_trust(client, agent):
    memory = store(client, agent, "The user likes green tea")
    first = act(client, agent, memory["id"], "reinforce")
    assert (first["reinforcements"], first["disputes"], first["trust"], first["confidence"], first["status"]) == \
        (1, 0, pytest.approx(0.65), pytest.approx(0.65), "active")
    second = act(client, agent, memory["id"], "reinforce")
    assert second["reinforcements"] == 2 and second["trust"] == pytest.approx(0.65)


def test_dispute_counts_and_lowers_trust_but_a_fresh_belief_stays_active(client, agent):
    memory = store(client, agent, "The user lives in Lyon")
    result = act(client, agent, memory["id"], "dispute", {"reason": "user said otherwise"})
    assert (result["disputes"], result["trust"], result["status"]) == (1, pytest.approx(0.35), "active")
    # The PRD formula floors feedback at -0.15: a fresh inference belief cannot fall below 0.35.
    for _ in range(3):
        result = act(client, agent, memory["id"], "dispute")
    assert (result["disputes"], result["trust"], result["status"]) == (4, pytest.approx(0.35), "active")


def test_a_dispute_that_drives_trust_below_0_3_marks_the_belief_disputed_and_hides_it(client, agent, cypher):
    memory = store(client, agent, "The office wifi network is called Hunter")
    # A year-old inference: 0.5 - 0.1 (age). One dispute: -0.15 -> 0.25 < 0.3.
    cypher("MATCH (m:Memory {id: $id}) SET m.created_at = m.created_at - duration('P366D') RETURN m.id AS id",
           id=memory["id"])
    result = act(client, agent, memory["id"], "dispute", {"reason": "rotated"})
    assert result["trust"] == pytest.approx(0.25) and result["status"] == "disputed"
    assert search(client, agent, "wifi network") == []
    assert [r["id"] for r in search(client, agent, "wifi network", statuses=["disputed"])] == [memory["id"]]


def test_corroborate_counts_distinct_sources_only(client, agent):
    memory = store(client, agent, "The user's passport expires in 2031", source="document")
    one = act(client, agent, memory["id"], "corroborate", {"source": {"source": "tool_output", "ref": "ocr-1"}})
    assert one["corroboration"] == 2 and one["trust"] == pytest.approx(0.65)
    same = act(client, agent, memory["id"], "corroborate", {"source": {"source": "tool_output", "ref": "ocr-1"}})
    assert same["corroboration"] == 2 and same["trust"] == pytest.approx(0.65)
    for i in range(4):
        last = act(client, agent, memory["id"], "corroborate", {"source": {"source": "document", "ref": f"scan-{i}"}})
    assert last["corroboration"] == 6 and last["trust"] == pytest.approx(0.8)  # bonus capped at 0.2


def test_dispute_and_corroboration_balance(client, agent):
    memory = store(client, agent, "The user's team has eight people", source="document")
    act(client, agent, memory["id"], "corroborate", {"source": {"source": "system"}})
    act(client, agent, memory["id"], "reinforce")
    result = act(client, agent, memory["id"], "dispute")
    # 0.6 + 0.05 (two sources) + 0 (one up, one down) = 0.65
    assert (result["reinforcements"], result["disputes"], result["corroboration"], result["trust"]) == \
        (1, 1, 2, pytest.approx(0.65))


def test_feedback_is_audited_and_scoped_to_the_tenant(client, agent):
    memory = store(client, agent, "The user drinks decaf after 3pm")
    client.post(f"/v1/memories/{memory['id']}/dispute", params={"agent": agent}, json={"reason": "saw an espresso"},
                headers={"X-Credence-Actor": "reviewer-7"})
    history = client.get(f"/v1/memories/{memory['id']}/history", params={"agent": agent}).json()["operations"]
    dispute = history[-1]
    assert dispute["op"] == "dispute" and dispute["actor"] == "reviewer-7"
    assert dispute["before"]["disputes"] == 0 and dispute["after"]["disputes"] == 1
    assert dispute["after"]["reason"] == "saw an espresso"
    for action, body in (("reinforce", None), ("dispute", None), ("corroborate", {"source": {"source": "system"}})):
        assert_problem(client.post(f"/v1/memories/{memory['id']}/{action}", params={"agent": f"{agent}-x"},
                                   json=body), 404)
        assert_problem(client.post(f"/v1/memories/{uuid.uuid4()}/{action}", params={"agent": agent}, json=body), 404)
    assert_problem(client.post(f"/v1/memories/{memory['id']}/corroborate", params={"agent": agent},
                               json={"source": {"source": "gossip"}}), 422, "source.source")
