"""Concurrent writers of one belief end in a state the rules allow: never two active values."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

SOURCES = ["user_explicit", "system", "tool_output", "user_implicit", "document", "inference"]


def test_twenty_parallel_conflicting_writes_leave_one_active_value(client, agent, cypher):
    def write(i: int):
        return client.post("/v1/memories", json={
            "agent": agent, "text": f"The budget is ${100 + i}",
            "claim": {"subject": "user", "predicate": "budget_is", "value": f"${100 + i}"},
            "provenance": {"source": SOURCES[i % len(SOURCES)], "ref": f"w{i}"}})

    with ThreadPoolExecutor(max_workers=20) as pool:
        responses = list(pool.map(write, range(20)))
    assert [r.status_code for r in responses] == [201] * 20, [r.text for r in responses if r.status_code != 201]

    rows = cypher("MATCH (m:Memory {agent: $a})-[:ASSERTS]->(c:Claim) RETURN m.id AS id, m.status AS status, "
                  "m.trust AS trust, c.value AS value", a=agent)
    assert len(rows) == 20  # nothing lost
    active = [r for r in rows if r["status"] == "active"]
    assert len(active) == 1, active
    # The survivor is a most-trusted write: nobody less trusted replaced a more trusted belief.
    assert active[0]["trust"] == max(r["trust"] for r in rows)
    assert {r["status"] for r in rows} <= {"active", "superseded", "quarantined"}
    # Every supersession edge points from an equal-or-more trusted belief to a less-or-equal one.
    edges = cypher("MATCH (n:Memory {agent: $a})-[s:SUPERSEDES]->(o:Memory) "
                   "RETURN s.new_trust AS new, s.old_trust AS old", a=agent)
    assert all(e["new"] >= e["old"] for e in edges)


def test_parallel_feedback_never_loses_a_count(client, agent):
    memory = client.post("/v1/memories", json={"agent": agent, "text": "The user likes long walks"}).json()

    def feedback(i: int):
        action = "reinforce" if i % 2 == 0 else "dispute"
        return client.post(f"/v1/memories/{memory['id']}/{action}", params={"agent": agent}, json={})

    with ThreadPoolExecutor(max_workers=16) as pool:
        responses = list(pool.map(feedback, range(32)))
    assert [r.status_code for r in responses] == [200] * 32, [r.text for r in responses if r.status_code != 200]
    current = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert (current["reinforcements"], current["disputes"], current["version"]) == (16, 16, 33)
    ops = client.get(f"/v1/memories/{memory['id']}/history", params={"agent": agent}).json()["operations"]
    assert len(ops) == 33  # store + one record per feedback


def test_parallel_plain_writes_share_one_source_node(client, agent, cypher):
    """20 writers in a fresh tenant all MERGE the same (inference, '') source: one node, not many."""
    def write(i: int):
        return client.post("/v1/memories", json={"agent": agent, "text": f"Plain note number {i}"})

    with ThreadPoolExecutor(max_workers=20) as pool:
        responses = list(pool.map(write, range(20)))
    assert [r.status_code for r in responses] == [201] * 20, [r.text for r in responses if r.status_code != 201]
    sources = cypher("MATCH (s:Source {agent: $a}) RETURN s.type AS type, s.ref AS ref", a=agent)
    assert sources == [{"type": "inference", "ref": ""}]
    linked = cypher("MATCH (m:Memory {agent: $a})-[:FROM]->(s:Source) RETURN count(DISTINCT m) AS n", a=agent)
    assert linked == [{"n": 20}]


def test_parallel_claims_about_one_subject_share_one_entity_and_the_tenant_keeps_working(client, agent, cypher):
    def write(i: int):
        return client.post("/v1/memories", json={
            "agent": agent, "text": f"The user has trait number {i}",
            "claim": {"subject": "user", "predicate": f"trait_{i}", "value": f"value {i}"}})

    with ThreadPoolExecutor(max_workers=20) as pool:
        responses = list(pool.map(write, range(20)))
    assert [r.status_code for r in responses] == [201] * 20, [r.text for r in responses if r.status_code != 201]
    assert cypher("MATCH (e:Entity {agent: $a, name: 'user'}) RETURN count(e) AS n", a=agent) == [{"n": 1}]
    # A later claim write in the same tenant still works (duplicates used to make every one a 500).
    later = client.post("/v1/memories", json={
        "agent": agent, "text": "The user lives in Lisbon",
        "claim": {"subject": "user", "predicate": "lives_in", "value": "Lisbon"},
        "provenance": {"source": "user_explicit"}})
    assert later.status_code == 201, later.text
    assert later.json()["claim"]["value"] == "Lisbon"


def test_parallel_patches_with_one_expected_version_let_exactly_one_through(client, agent):
    """The version check must happen under the write lock: under read committed, a check before it
    lets two PATCHes that both expected version 1 succeed."""
    memory = client.post("/v1/memories", json={"agent": agent, "text": "The meeting is on Monday"}).json()

    def patch(i: int):
        return client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                            json={"importance": round(0.1 + i / 100, 2), "expected_version": 1})

    with ThreadPoolExecutor(max_workers=12) as pool:
        responses = list(pool.map(patch, range(12)))
    codes = sorted(r.status_code for r in responses)
    assert codes == [200] + [409] * 11, [r.text for r in responses]
    current = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert current["version"] == 2


def test_parallel_archives_count_one_version(client, agent):
    memory = client.post("/v1/memories", json={"agent": agent, "text": "The office closes at six"}).json()
    with ThreadPoolExecutor(max_workers=8) as pool:
        responses = list(pool.map(lambda _: client.delete(f"/v1/memories/{memory['id']}", params={"agent": agent}),
                                  range(8)))
    assert {r.status_code for r in responses} <= {200, 204}, [r.text for r in responses]
    current = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert (current["status"], current["version"]) == ("archived", 2)
