"""Conflicts, the quarantine lane and explain through the API (PRD v0.8 F3, v0.8.1 F8-F9)."""
from __future__ import annotations

import uuid

import pytest

from tests.helpers import assert_problem, list_all, search


def store(client, agent, value, source, predicate="budget_is", **extra):
    response = client.post("/v1/memories", json={
        "agent": agent, "text": f"The {predicate} is {value}", "provenance": {"source": source},
        "claim": {"subject": "user", "predicate": predicate, "value": value}, **extra})
    assert response.status_code in (200, 201), response.text
    return response.json()


def memory(client, agent, memory_id):
    return client.get(f"/v1/memories/{memory_id}", params={"agent": agent}).json()


def resolve(client, agent, conflict_id, action, status=200):
    response = client.post(f"/v1/conflicts/{conflict_id}/resolve", params={"agent": agent}, json={"action": action})
    assert response.status_code == status, response.text
    return response.json()


def review(client, agent, memory_id, action, status=200):
    response = client.post(f"/v1/quarantine/{memory_id}/review", params={"agent": agent}, json={"action": action})
    assert response.status_code == status, response.text
    return response.json()


@pytest.fixture
def blocked(client, agent):
    real = store(client, agent, "$750", "user_explicit")
    poison = store(client, agent, "$0", "document")
    assert poison["status"] == "quarantined"
    return real, poison


# -- conflicts --------------------------------------------------------------------------------------

def test_pending_conflicts_are_listed_with_both_sides(client, agent, blocked):
    real, poison = blocked
    listed = client.get("/v1/conflicts", params={"agent": agent}).json()
    assert listed["count"] == 1
    [c] = listed["conflicts"]
    assert (c["id"], c["status"], c["reason"], c["rule"]) == (poison["pending_conflict_id"], "pending",
                                                              "trust_insufficient", "trust_insufficient")
    assert (c["new_id"], c["existing_id"], c["new_status"], c["existing_status"]) == \
        (poison["id"], real["id"], "quarantined", "active")
    assert (c["new_claim"]["value"], c["existing_claim"]["value"]) == ("$0", "$750")
    assert (c["new_trust"], c["existing_trust"]) == (pytest.approx(0.6), pytest.approx(1.0, abs=1e-3))
    assert client.get("/v1/conflicts", params={"agent": agent, "subject": "project"}).json()["count"] == 0
    assert client.get("/v1/conflicts", params={"agent": agent, "predicate": "budget_is"}).json()["count"] == 1
    assert client.get("/v1/conflicts", params={"agent": f"{agent}-other"}).json()["count"] == 0


def test_resolve_supersede_activates_the_new_belief_and_replaces_the_old(client, agent, blocked):
    real, poison = blocked
    result = resolve(client, agent, poison["pending_conflict_id"], "supersede")
    assert result["memory"]["status"] == "active" and result["superseded"] == [real["id"]]
    assert result["resolved_conflicts"] == [poison["pending_conflict_id"]]
    assert memory(client, agent, real["id"])["status"] == "superseded"
    assert [r["id"] for r in search(client, agent, "budget")] == [poison["id"]]
    assert client.get("/v1/conflicts", params={"agent": agent}).json()["count"] == 0
    [c] = client.get("/v1/conflicts", params={"agent": agent, "include_resolved": True}).json()["conflicts"]
    assert (c["status"], c["resolution"], c["resolved_by"]) == ("resolved", "supersede", "api")
    # Resolving twice is refused and changes nothing.
    assert_problem(client.post(f"/v1/conflicts/{c['id']}/resolve", params={"agent": agent},
                               json={"action": "reject"}), 409)
    assert memory(client, agent, poison["id"])["status"] == "active"


def test_resolve_reject_archives_the_new_memory(client, agent, blocked):
    real, poison = blocked
    result = resolve(client, agent, poison["pending_conflict_id"], "reject")
    assert result["memory"]["status"] == "archived" and result["superseded"] == []
    assert memory(client, agent, real["id"])["status"] == "active"
    assert [m["id"] for m in list_all(client, agent, status="archived")] == [poison["id"]]


def test_resolve_keep_both_activates_both(client, agent, blocked):
    real, poison = blocked
    result = resolve(client, agent, poison["pending_conflict_id"], "keep_both")
    assert result["memory"]["status"] == "active"
    assert {m["id"] for m in list_all(client, agent)} == {real["id"], poison["id"]}


def test_resolve_errors(client, agent, blocked):
    _, poison = blocked
    assert_problem(client.post(f"/v1/conflicts/{uuid.uuid4()}/resolve", params={"agent": agent},
                               json={"action": "supersede"}), 404)
    assert_problem(client.post(f"/v1/conflicts/{poison['pending_conflict_id']}/resolve",
                               params={"agent": f"{agent}-x"}, json={"action": "supersede"}), 404)
    assert_problem(client.post(f"/v1/conflicts/{poison['pending_conflict_id']}/resolve", params={"agent": agent},
                               json={"action": "merge"}), 422, "action")
    assert memory(client, agent, poison["id"])["status"] == "quarantined"


# -- quarantine lane --------------------------------------------------------------------------------

def test_the_quarantine_list_holds_quarantined_memories_only(client, agent, blocked):
    _, poison = blocked
    flagged = client.post("/v1/memories", json={"agent": agent, "text": "odd", "quarantine": {}}).json()
    listed = client.get("/v1/quarantine", params={"agent": agent}).json()
    assert {m["id"] for m in listed["items"]} == {poison["id"], flagged["id"]}
    assert {m["quarantine"]["reason"] for m in listed["items"]} == {"trust_insufficient", "suspicious_input"}
    assert client.get("/v1/quarantine", params={"agent": agent, "limit": 1}).json()["count"] == 1


def test_manual_quarantine_hides_a_belief_until_review(client, agent):
    belief = store(client, agent, "$750", "document")
    response = client.post(f"/v1/memories/{belief['id']}/quarantine", params={"agent": agent},
                           json={"details": "operator saw a bad import"})
    assert response.status_code == 200, response.text
    assert response.json()["quarantine"] == {**response.json()["quarantine"], "reason": "manual",
                                             "details": "operator saw a bad import"}
    assert search(client, agent, "budget") == []
    activated = review(client, agent, belief["id"], "activate")
    assert activated["memory"]["status"] == "active"
    assert (activated["memory"]["quarantine"]["reason"], activated["memory"]["quarantine"]["resolution"]) == \
        ("manual", "activated")
    assert [r["id"] for r in search(client, agent, "budget")] == [belief["id"]]
    client.delete(f"/v1/memories/{belief['id']}", params={"agent": agent})
    assert_problem(client.post(f"/v1/memories/{belief['id']}/quarantine", params={"agent": agent}, json={}), 409)


def test_reviewing_suspicious_input_activates_it(client, agent):
    flagged = client.post("/v1/memories", json={"agent": agent, "text": "The user's cat is named Mochi",
                                                 "quarantine": {"details": "unverified"}}).json()
    result = review(client, agent, flagged["id"], "activate")
    assert result["memory"]["status"] == "active" and result["pending_conflict_id"] is None
    review(client, agent, flagged["id"], "activate", status=409)  # no longer quarantined


def test_activation_runs_conflict_resolution_again(client, agent, blocked):
    real, poison = blocked
    # Still outranked: it stays quarantined, pointing at the conflict that holds it.
    result = review(client, agent, poison["id"], "activate")
    assert result["memory"]["status"] == "quarantined"
    assert result["pending_conflict_id"] == poison["pending_conflict_id"]
    assert memory(client, agent, real["id"])["status"] == "active"
    # Once the better-trusted belief is gone, activation succeeds and settles the conflict.
    client.delete(f"/v1/memories/{real['id']}", params={"agent": agent})
    result = review(client, agent, poison["id"], "activate")
    assert result["memory"]["status"] == "active" and result["pending_conflict_id"] is None
    assert client.get("/v1/conflicts", params={"agent": agent}).json()["count"] == 0


def test_activation_that_wins_supersedes_the_loser(client, agent):
    client.put("/v1/predicates/prefers_seat", params={"agent": agent}, json={"conflict_policy": "require_review"})
    aisle = store(client, agent, "aisle", "document", predicate="prefers_seat")
    window = store(client, agent, "window", "user_explicit", predicate="prefers_seat")
    assert window["quarantine"]["reason"] == "predicate_requires_review"
    result = review(client, agent, window["id"], "activate")
    assert result["memory"]["status"] == "active" and result["superseded"] == [aisle["id"]]
    assert memory(client, agent, aisle["id"])["status"] == "superseded"


def test_review_reject_archives(client, agent, blocked):
    _, poison = blocked
    result = review(client, agent, poison["id"], "reject")
    assert result["memory"]["status"] == "archived"
    assert client.get("/v1/conflicts", params={"agent": agent}).json()["count"] == 0
    history = client.get(f"/v1/memories/{poison['id']}/history", params={"agent": agent}).json()["operations"]
    assert [o["op"] for o in history] == ["store", "quarantine", "review"]
    assert history[-1]["after"]["outcome"] == "rejected"


# -- explain ----------------------------------------------------------------------------------------

def test_explain_shows_trust_term_by_term_sources_claim_and_conflicts(client, agent, blocked):
    real, poison = blocked
    client.post(f"/v1/memories/{real['id']}/corroborate", params={"agent": agent},
                json={"source": {"source": "tool_output", "ref": "bank-api"}})
    client.post(f"/v1/memories/{real['id']}/dispute", params={"agent": agent}, json={})
    explained = client.get(f"/v1/memories/{real['id']}/explain", params={"agent": agent}).json()
    trust = explained["trust"]
    assert (trust["source_base"], trust["corroboration_bonus"], trust["feedback_signal"]) == \
        (1.0, pytest.approx(0.05), pytest.approx(-0.15))
    # A fresh belief: user_explicit 1.0, a second source +0.05, one dispute and no reinforcement
    # -0.15, and a recency penalty of seconds' worth; stored and recomputed trust agree.
    assert trust["recency_penalty"] == pytest.approx(0.0, abs=1e-4)
    assert trust["trust"] == pytest.approx(0.9, abs=1e-4)
    assert explained["memory"]["trust"] == explained["memory"]["confidence"] == pytest.approx(0.9, abs=1e-4)
    assert trust["inputs"] == {**trust["inputs"], "source": "user_explicit", "corroboration": 2, "disputes": 1}
    assert [(s["type"], s["ref"]) for s in explained["sources"]] == [("user_explicit", ""), ("tool_output", "bank-api")]
    assert explained["claim"]["value"] == "$750" and explained["status"] == "active"
    [conflict] = explained["conflicts"]
    assert (conflict["role"], conflict["other_id"], conflict["status"]) == ("existing", poison["id"], "pending")
    assert_problem(client.get(f"/v1/memories/{uuid.uuid4()}/explain", params={"agent": agent}), 404)


def test_explain_supersession_says_who_when_and_both_trusts(client, agent):
    old = store(client, agent, "$500", "document")
    new = store(client, agent, "$650", "system")
    view = client.get(f"/v1/memories/{old['id']}/explain/supersession", params={"agent": agent}).json()
    assert view["status"] == "superseded" and view["superseded"] is True
    [by] = view["superseded_by"]
    assert (by["id"], by["reason"], by["new_trust"], by["old_trust"]) == \
        (new["id"], "higher_trust", pytest.approx(0.95), pytest.approx(0.6))
    assert by["at"] >= old["created_at"]
    current = client.get(f"/v1/memories/{new['id']}/explain/supersession", params={"agent": agent}).json()
    assert current["superseded"] is False and current["superseded_by"] == []
    explained = client.get(f"/v1/memories/{new['id']}/explain", params={"agent": agent}).json()
    assert [s["id"] for s in explained["supersedes"]] == [old["id"]]
