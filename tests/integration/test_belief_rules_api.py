"""One rule set decides which active beliefs a belief may supersede or conflict with, on every path
that activates or supersedes one: the write path, quarantine review and conflict resolution. A
multi-valued predicate or a non-exclusive claim has no rivals on any of them."""
from __future__ import annotations

from tests.helpers import list_all


def put(client, agent, predicate, **fields):
    response = client.put(f"/v1/predicates/{predicate}", params={"agent": agent}, json=fields)
    assert response.status_code == 200, response.text


def store(client, agent, value, source="user_explicit", predicate="likes", claim_extra=None, **extra):
    response = client.post("/v1/memories", json={
        "agent": agent, "text": f"The user likes {value}", "provenance": {"source": source},
        "claim": {"subject": "user", "predicate": predicate, "value": value, **(claim_extra or {})}, **extra})
    assert response.status_code in (200, 201), response.text
    return response.json()


def status_of(client, agent, memory_id):
    return client.get(f"/v1/memories/{memory_id}", params={"agent": agent}).json()["status"]


def review(client, agent, memory_id, action):
    response = client.post(f"/v1/quarantine/{memory_id}/review", params={"agent": agent}, json={"action": action})
    assert response.status_code == 200, response.text
    return response.json()


def resolve(client, agent, conflict_id, action):
    response = client.post(f"/v1/conflicts/{conflict_id}/resolve", params={"agent": agent}, json={"action": action})
    assert response.status_code == 200, response.text
    return response.json()


def test_activating_a_quarantined_value_of_a_multi_valued_predicate_supersedes_nothing(client, agent):
    put(client, agent, "likes", cardinality="multi")
    jazz, techno = store(client, agent, "jazz"), store(client, agent, "techno")
    assert (jazz["status"], techno["status"], techno["conflicts"]) == ("active", "active", [])
    house = store(client, agent, "house", quarantine={"details": "pasted from an unknown page"})
    assert house["status"] == "quarantined"

    result = review(client, agent, house["id"], "activate")
    assert result["memory"]["status"] == "active"
    assert (result["superseded"], result["pending_conflict_id"]) == ([], None)
    assert (status_of(client, agent, jazz["id"]), status_of(client, agent, techno["id"])) == ("active", "active")
    assert {m["id"] for m in list_all(client, agent)} == {jazz["id"], techno["id"], house["id"]}
    assert client.get("/v1/conflicts", params={"agent": agent, "include_resolved": True}).json()["count"] == 0


def test_activating_a_quarantined_non_exclusive_claim_supersedes_nothing(client, agent):
    jazz = store(client, agent, "jazz")
    house = store(client, agent, "house", claim_extra={"exclusive": False}, quarantine={})
    assert house["status"] == "quarantined"

    result = review(client, agent, house["id"], "activate")
    assert (result["memory"]["status"], result["superseded"]) == ("active", [])
    assert status_of(client, agent, jazz["id"]) == "active"


def test_a_losing_non_exclusive_claim_is_not_held_by_a_conflict_on_review(client, agent):
    jazz = store(client, agent, "jazz")
    house = store(client, agent, "house", source="inference", claim_extra={"exclusive": False}, quarantine={})

    result = review(client, agent, house["id"], "activate")
    assert (result["memory"]["status"], result["pending_conflict_id"]) == ("active", None)
    assert status_of(client, agent, jazz["id"]) == "active"
    assert client.get("/v1/conflicts", params={"agent": agent, "include_resolved": True}).json()["count"] == 0


def test_resolving_with_supersede_after_the_predicate_became_multi_valued_supersedes_nothing(client, agent):
    jazz = store(client, agent, "jazz")
    techno = store(client, agent, "techno", source="document")
    assert techno["status"] == "quarantined" and techno["pending_conflict_id"]
    put(client, agent, "likes", cardinality="multi")  # both values may hold now

    result = resolve(client, agent, techno["pending_conflict_id"], "supersede")
    assert (result["memory"]["status"], result["superseded"]) == ("active", [])
    assert result["resolved_conflicts"] == [techno["pending_conflict_id"]]
    assert status_of(client, agent, jazz["id"]) == "active"
    assert {m["id"] for m in list_all(client, agent)} == {jazz["id"], techno["id"]}


def test_resolving_with_supersede_still_replaces_an_exclusive_single_valued_rival(client, agent):
    jazz = store(client, agent, "jazz")
    techno = store(client, agent, "techno", source="document")

    result = resolve(client, agent, techno["pending_conflict_id"], "supersede")
    assert (result["memory"]["status"], result["superseded"]) == ("active", [jazz["id"]])
    assert status_of(client, agent, jazz["id"]) == "superseded"


def test_activation_does_not_reach_across_session_scope(client, agent):
    jazz = store(client, agent, "jazz")
    house = store(client, agent, "house", claim_extra={"scope": "session", "session_id": "s-1"}, quarantine={})

    result = review(client, agent, house["id"], "activate")
    assert (result["memory"]["status"], result["superseded"]) == ("active", [])
    assert status_of(client, agent, jazz["id"]) == "active"


def conflicts_between(client, agent, a, b):
    listed = client.get("/v1/conflicts", params={"agent": agent, "include_resolved": True}).json()["conflicts"]
    return [c for c in listed if {c["new_id"], c["existing_id"]} == {a, b}]


def test_keep_both_does_not_activate_a_belief_silently_beside_a_rival_the_conflict_never_named(client, agent):
    first = store(client, agent, "$500", predicate="budget_is")
    blocked = store(client, agent, "$0", source="document", predicate="budget_is")
    newer = store(client, agent, "$900", predicate="budget_is")
    assert newer["superseded"] == [first["id"]]  # the conflict's other side is gone; $900 never met $0

    result = resolve(client, agent, blocked["pending_conflict_id"], "keep_both")
    assert result["memory"]["status"] == "active" and result["superseded"] == []
    assert (status_of(client, agent, newer["id"]), status_of(client, agent, first["id"])) == ("active", "superseded")
    # Two active values of one exclusive belief: the rule set finds the rival, and the contradiction
    # waits for review instead of standing unrecorded.
    [conflict] = conflicts_between(client, agent, blocked["id"], newer["id"])
    assert (conflict["status"], conflict["new_id"]) == ("pending", blocked["id"])


def test_resolving_with_supersede_records_each_rival_it_replaces(client, agent):
    first = store(client, agent, "$500", predicate="budget_is")
    blocked = store(client, agent, "$0", source="document", predicate="budget_is")
    newer = store(client, agent, "$900", predicate="budget_is")

    result = resolve(client, agent, blocked["pending_conflict_id"], "supersede")
    assert result["superseded"] == [newer["id"]] and status_of(client, agent, newer["id"]) == "superseded"
    [conflict] = conflicts_between(client, agent, blocked["id"], newer["id"])
    assert (conflict["status"], conflict["resolution"]) == ("resolved", "supersede")
    assert status_of(client, agent, first["id"]) == "superseded"


def test_activation_under_keep_both_records_the_conflict_as_the_write_path_does(client, agent):
    put(client, agent, "nickname", conflict_policy="keep_both")
    bobby = store(client, agent, "Bobby", predicate="nickname", quarantine={})  # no rival yet
    bob = store(client, agent, "Bob", predicate="nickname")
    assert (bobby["status"], bob["status"], bob["conflicts"]) == ("quarantined", "active", [])

    result = review(client, agent, bobby["id"], "activate")
    assert (result["memory"]["status"], result["superseded"]) == ("active", [])
    assert status_of(client, agent, bob["id"]) == "active"
    [conflict] = conflicts_between(client, agent, bobby["id"], bob["id"])
    assert (conflict["status"], conflict["resolution"]) == ("resolved", "keep_both")


def test_activation_that_supersedes_records_the_conflict_as_the_write_path_does(client, agent):
    flagged = store(client, agent, "$900", predicate="budget_is", quarantine={})  # no rival yet
    older = store(client, agent, "$500", source="document", predicate="budget_is")

    result = review(client, agent, flagged["id"], "activate")
    assert result["superseded"] == [older["id"]]
    [conflict] = conflicts_between(client, agent, flagged["id"], older["id"])
    assert (conflict["status"], conflict["resolution"], conflict["rule"]) == \
        ("resolved", "supersede", "user_correction")


def test_activation_leaves_the_conflict_of_a_belief_still_waiting_on_it_pending(client, agent):
    standing = store(client, agent, "$500", predicate="budget_is")
    waiting = store(client, agent, "$0", source="document", predicate="budget_is")
    client.post(f"/v1/memories/{standing['id']}/quarantine", params={"agent": agent}, json={})

    result = review(client, agent, standing["id"], "activate")
    assert result["memory"]["status"] == "active"
    assert status_of(client, agent, waiting["id"]) == "quarantined"
    [conflict] = conflicts_between(client, agent, waiting["id"], standing["id"])
    assert (conflict["id"], conflict["status"]) == (waiting["pending_conflict_id"], "pending")


def test_a_session_id_on_a_global_claim_does_not_take_it_out_of_the_global_scope(client, agent):
    # Retrieval shows such a claim as global, so it must meet global claims as one.
    berlin = store(client, agent, "Berlin", predicate="lives_in")
    tokyo = store(client, agent, "Tokyo", predicate="lives_in", claim_extra={"session_id": "s-1"})
    assert (tokyo["status"], tokyo["superseded"]) == ("active", [berlin["id"]])
    again = store(client, agent, "Tokyo", predicate="lives_in", source="tool_output")
    assert again["deduplicated"] and again["id"] == tokyo["id"]
