"""Property test: random sequences of conflicting claim writes from random sources, with the
issue's four invariants checked after every step, on the real backend."""
from __future__ import annotations

import uuid
from datetime import datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import search

SOURCES = ["user_explicit", "system", "tool_output", "user_implicit", "document", "inference"]
WINDOWS = [(None, None), ("2020-01-01T00:00:00Z", "2021-12-31T00:00:00Z"), ("2021-06-01T00:00:00Z", None),
           ("2023-01-01T00:00:00Z", "2024-01-01T00:00:00Z")]

write = st.fixed_dictionaries({
    "subject": st.sampled_from(["user", "project"]),
    "predicate": st.sampled_from(["budget_is", "lives_in"]),
    "value": st.sampled_from(["Berlin", "Tokyo", "$500", "$900"]),
    "source": st.sampled_from(SOURCES),
    "window": st.sampled_from(WINDOWS),
})


def overlaps(a, b) -> bool:
    lo = lambda w: datetime.fromisoformat(w[0]) if w[0] else datetime.min  # noqa: E731
    hi = lambda w: datetime.fromisoformat(w[1]) if w[1] else datetime.max  # noqa: E731
    return lo(a) <= hi(b) and lo(b) <= hi(a)


def window_of(row) -> tuple:
    fmt = lambda v: v.to_native().replace(tzinfo=None).isoformat() if v is not None else None  # noqa: E731
    return fmt(row["valid_from"]), fmt(row["valid_until"])


def check_invariants(client, cypher, agent: str, written: set[str]) -> None:
    rows = cypher("MATCH (m:Memory {agent: $a}) OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim) "
                  "RETURN m.id AS id, m.status AS status, c.subject AS subject, c.predicate AS predicate, "
                  "c.normalized_value AS value, c.valid_from AS valid_from, c.valid_until AS valid_until", a=agent)
    by_id = {r["id"]: r for r in rows}
    # (d) nothing is lost: every write is still there, in a reachable status.
    assert written <= set(by_id)
    assert {r["status"] for r in rows} <= {"active", "superseded", "quarantined", "archived"}
    # (a) at most one active value per exclusive (subject, predicate) among overlapping windows.
    active = [r for r in rows if r["status"] == "active"]
    for i, a in enumerate(active):
        for b in active[i + 1:]:
            if (a["subject"], a["predicate"]) == (b["subject"], b["predicate"]) and a["value"] != b["value"]:
                assert not overlaps(window_of(a), window_of(b)), (a, b)
    # (b) poisoning resistance: no supersession by a less trusted write.
    edges = cypher("MATCH (:Memory {agent: $a})-[s:SUPERSEDES]->(:Memory) RETURN s.new_trust AS new, s.old_trust AS old",
                   a=agent)
    assert all(e["new"] >= e["old"] for e in edges), edges
    # (c) contradiction exposure: default search shows active beliefs only.
    for query in ("what is the budget", "where does the user live"):
        for hit in search(client, agent, query, limit=20):
            assert by_id[hit["id"]]["status"] == "active"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(write, min_size=1, max_size=8))
def test_random_conflicting_writes_keep_the_invariants(client, cypher, steps):
    agent = f"prop-{uuid.uuid4().hex[:10]}"
    written: set[str] = set()
    for step in steps:
        start, end = step["window"]
        claim = {"subject": step["subject"], "predicate": step["predicate"], "value": step["value"],
                 "scope": "temporal" if start or end else "global", "valid_from": start, "valid_until": end}
        response = client.post("/v1/memories", json={
            "agent": agent, "text": f"{step['subject']} {step['predicate']} {step['value']}",
            "claim": claim, "provenance": {"source": step["source"]}})
        assert response.status_code in (200, 201), response.text
        written.add(response.json()["id"])
        check_invariants(client, cypher, agent, written)
