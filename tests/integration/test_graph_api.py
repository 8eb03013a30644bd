"""The memory graph (issue 11 items 1 and 2, docs/graph.md): typed edges with their history, who
may write which kind, acyclic causes, CONTRADICTS beside every conflict, and recall that follows
edges in one bounded pattern while hidden memories stay hidden. Through the HTTP API, both backends."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graph.store.schema import apply_migrations
from tests.conftest import backend_test_settings
from tests.helpers import assert_problem, search, store

ACTOR = {"X-Credence-Actor": "analyst-ana"}


def link(client, agent, a, b, kind, note=None):
    response = client.post(f"/v1/memories/{a['id']}/links", headers=ACTOR,
                           json={"agent": agent, "type": kind, "to": b["id"], "note": note})
    return response


def links(client, agent, memory) -> list[dict]:
    response = client.get(f"/v1/memories/{memory['id']}/links", params={"agent": agent})
    assert response.status_code == 200, response.text
    return response.json()["links"]


def belief(client, agent, text, value, source, **extra):
    return store(client, agent, text, provenance={"source": source},
                 claim={"subject": "user", "predicate": "budget_is", "value": value}, **extra)


# -- edges: kinds, owners, history -------------------------------------------------------------------

def test_user_edges_record_when_who_and_why_and_can_be_removed(client, agent, cypher):
    cause, effect, promoted = (store(client, agent, t) for t in ("Rain all week", "The picnic moved", "A rule"))
    for a, b, kind in ((cause, effect, "CAUSES"), (cause, promoted, "SUPPORTS"), (promoted, cause, "PROMOTED_FROM")):
        assert link(client, agent, a, b, kind, note=f"{kind} note").status_code == 201
    mine = {(e["type"], e["direction"], e["id"]): e for e in links(client, agent, cause)}
    assert set(mine) == {("CAUSES", "out", effect["id"]), ("SUPPORTS", "out", promoted["id"]),
                         ("PROMOTED_FROM", "in", promoted["id"])}
    for edge in mine.values():
        assert edge["created_by"] == "analyst-ana" and edge["at"] and edge["note"] == f"{edge['type']} note"
    # In the graph, every edge carries created_at and created_by.
    rows = cypher("MATCH (:Memory {agent: $a})-[r]->(:Memory {agent: $a}) "
                  "RETURN type(r) AS kind, r.created_at IS NOT NULL AS dated, r.created_by AS by", a=agent)
    assert sorted((r["kind"], r["dated"], r["by"]) for r in rows) == [
        ("CAUSES", True, "analyst-ana"), ("PROMOTED_FROM", True, "analyst-ana"), ("SUPPORTS", True, "analyst-ana")]
    # Linking again is idempotent and keeps the first record.
    assert link(client, agent, cause, effect, "CAUSES", note="again").status_code == 201
    assert [e["note"] for e in links(client, agent, effect) if e["type"] == "CAUSES"] == ["CAUSES note"]
    gone = client.delete(f"/v1/memories/{promoted['id']}/links/PROMOTED_FROM/{cause['id']}", params={"agent": agent})
    assert gone.status_code == 204
    assert ("PROMOTED_FROM", "in", promoted["id"]) not in {(e["type"], e["direction"], e["id"])
                                                           for e in links(client, agent, cause)}


def test_engine_edges_are_read_only_and_self_loops_refused(client, agent):
    a, b = store(client, agent, "one"), store(client, agent, "two")
    for kind in ("SUPERSEDES", "CONTRADICTS", "DIGEST_OF"):
        problem = assert_problem(link(client, agent, a, b, kind), 409)
        assert kind in problem["detail"] and "CAUSES, SUPPORTS, PROMOTED_FROM" in problem["detail"]
        problem = assert_problem(client.delete(f"/v1/memories/{a['id']}/links/{kind}/{b['id']}",
                                               params={"agent": agent}), 409)
        assert "engine" in problem["detail"] or "consolidation" in problem["detail"]
    assert "resolve the conflict" in assert_problem(link(client, agent, a, b, "CONTRADICTS"), 409)["detail"]
    for kind in ("CAUSES", "SUPPORTS", "PROMOTED_FROM"):
        assert "self-loops" in assert_problem(link(client, agent, a, a, kind), 422, "to")["detail"]
    assert links(client, agent, a) == []


def test_a_causal_cycle_is_refused_other_kinds_may_loop(client, agent):
    a, b, c = (store(client, agent, t) for t in ("Power cut", "Server down", "Orders lost"))
    assert link(client, agent, a, b, "CAUSES").status_code == 201
    assert link(client, agent, b, c, "CAUSES").status_code == 201
    for start, end in ((b, a), (c, a), (c, b)):
        problem = assert_problem(link(client, agent, start, end, "CAUSES"), 409)
        assert "causal cycle" in problem["detail"] and end["id"] in problem["detail"]
    # The refused links wrote nothing; a chain may still branch, and SUPPORTS may point back.
    assert {e["id"] for e in links(client, agent, a) if e["type"] == "CAUSES"} == {b["id"]}
    assert link(client, agent, a, c, "CAUSES").status_code == 201
    assert link(client, agent, c, a, "SUPPORTS").status_code == 201


def test_edges_never_cross_tenants(client, agent, cypher):
    mine = store(client, agent, "Mine: the deploy failed")
    theirs = store(client, f"{agent}-x", "Theirs: the deploy failed")
    assert_problem(link(client, agent, mine, theirs, "CAUSES"), 404)
    assert_problem(link(client, f"{agent}-x", mine, theirs, "CAUSES"), 404)
    assert links(client, agent, mine) == [] and links(client, f"{agent}-x", theirs) == []
    # Even an edge written behind the service's back is never followed across tenants.
    cypher("MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) CREATE (a)-[:SUPPORTS]->(b)", a=mine["id"], b=theirs["id"])
    [hit] = search(client, agent, "deploy failed", expand={"depth": 3})
    assert hit["id"] == mine["id"] and hit["related"] == []
    assert links(client, agent, mine) == []


def test_supersedes_and_contradicts_come_from_the_engine(client, agent, cypher):
    old = belief(client, agent, "Budget is $100", "$100", "inference")
    new = belief(client, agent, "Budget is $200", "$200", "user_explicit")
    assert new["superseded"] == [old["id"]]
    [edge] = [e for e in links(client, agent, new) if e["type"] == "SUPERSEDES"]
    assert (edge["direction"], edge["id"], edge["created_by"], edge["reason"]) == \
        ("out", old["id"], "engine", "user_correction")
    poison = belief(client, agent, "Budget is $0", "$0", "document")
    conflict_id = poison["pending_conflict_id"]
    # One pattern finds the contradiction, beside its Conflict node; pending: no resolution yet.
    found = cypher("MATCH (a:Memory {agent: $a})-[r:CONTRADICTS]->(b:Memory) RETURN a.id AS a, b.id AS b, "
                   "r.conflict_id AS conflict, r.created_by AS by, r.resolved_at IS NULL AS open, "
                   "r.resolution AS resolution", a=agent)
    # The supersession was a contradiction decided at once (resolved); the poison's is open.
    assert sorted((r["a"], r["b"], r["by"], r["open"], r["resolution"]) for r in found) == sorted([
        (new["id"], old["id"], "engine", False, "supersede"), (poison["id"], new["id"], "engine", True, None)])
    assert [r["conflict"] for r in found if r["open"]] == [conflict_id]
    [shown] = [e for e in links(client, agent, new) if e["type"] == "CONTRADICTS" and e["direction"] == "in"]
    assert (shown["direction"], shown["id"], shown["conflict_id"], shown["resolved_at"]) == \
        ("in", poison["id"], conflict_id, None)
    # Resolved, the edge stays, closed with the resolution: surfaced, never silently removed.
    resolved = client.post(f"/v1/conflicts/{conflict_id}/resolve", params={"agent": agent}, headers=ACTOR,
                           json={"action": "reject"})
    assert resolved.status_code == 200, resolved.text
    [closed] = [e for e in links(client, agent, new) if e["type"] == "CONTRADICTS" and e["direction"] == "in"]
    assert closed["resolution"] == "reject" and closed["resolved_at"]
    # A second contradiction of the same pair reopens the one edge instead of piling up another.
    again = belief(client, agent, "Budget is $0, really", "$0", "document")
    [edges] = cypher("MATCH (:Memory {agent: $a})-[r:CONTRADICTS]->(:Memory) RETURN count(r) AS n", a=agent)
    assert edges["n"] == 3  # new -> old, poison -> new and again -> new, one each
    # The engine never builds a SUPERSEDES cycle.
    assert cypher("MATCH (m:Memory {agent: $a}) WHERE EXISTS { (m)-[:SUPERSEDES*1..10]->(m) } RETURN m.id", a=agent) \
        == []
    assert again["pending_conflict_id"]


def test_migrations_give_older_edges_their_history(client, services, agent, cypher, run):
    # As older versions left them: a bare CONTRADICTS edge beside a pending Conflict, a SUPPORTS with `at`.
    cypher("""
        CREATE (n:Memory {agent: $a, id: $a + '-new', text: 'new', status: 'quarantined'})
        CREATE (o:Memory {agent: $a, id: $a + '-old', text: 'old', status: 'active'})
        CREATE (c:Conflict {agent: $a, id: $a + '-c', status: 'pending', reason: 'trust_insufficient',
                            created_at: datetime('2026-01-02T00:00:00Z')})
        CREATE (c)-[:INVOLVES {role: 'new'}]->(n), (c)-[:INVOLVES {role: 'existing'}]->(o)
        CREATE (n)-[:CONTRADICTS]->(o)
        CREATE (o)-[:SUPPORTS {at: datetime('2026-01-01T00:00:00Z'), note: 'old link'}]->(n)""", a=agent)
    run(apply_migrations, services.runner)
    run(apply_migrations, services.runner)  # a no-op once done
    rows = cypher("MATCH (:Memory {agent: $a})-[r]->(:Memory {agent: $a}) RETURN type(r) AS kind, "
                  "toString(r.created_at) AS created_at, r.created_by AS by, r.conflict_id AS conflict, "
                  "r.at IS NULL AS no_at, r.resolved_at IS NULL AS open ORDER BY kind", a=agent)
    assert [(r["kind"], r["created_at"][:10], r["by"], r["conflict"], r["no_at"], r["open"]) for r in rows] == [
        ("CONTRADICTS", "2026-01-02", "engine", f"{agent}-c", True, True),
        ("SUPPORTS", "2026-01-01", "unknown", None, True, True)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["arcadedb", "neo4j"])
def test_edges_survive_a_restart(kind, tmp_path, embedder):
    settings = backend_test_settings(kind, tmp_path)
    agent = "restart"
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        a, b = store(client, agent, "Cause before restart"), store(client, agent, "Effect before restart")
        assert link(client, agent, a, b, "CAUSES", note="kept").status_code == 201
        before = links(client, agent, a)
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        assert links(client, agent, a) == before and before[0]["note"] == "kept"
        [hit] = search(client, agent, "Cause before restart", limit=1, expand={"depth": 1})
        assert [r["id"] for r in hit["related"]] == [b["id"]]


# -- recall with relationships -----------------------------------------------------------------------

def chain(client, agent):
    """root -CAUSES-> mid -CAUSES-> leaf, and note -SUPPORTS-> root."""
    root = store(client, agent, "The quarterly budget was cut by half")
    mid, leaf = store(client, agent, "Hiring was frozen"), store(client, agent, "The Lisbon office opening slipped")
    note = store(client, agent, "Finance memo from March")
    for a, b, kind in ((root, mid, "CAUSES"), (mid, leaf, "CAUSES"), (note, root, "SUPPORTS")):
        assert link(client, agent, a, b, kind).status_code == 201
    return root, mid, leaf, note


def related_of(client, agent, query, **expand) -> dict[str, dict]:
    hit = search(client, agent, query, limit=1, expand=expand)[0]
    return {r["id"]: r for r in hit["related"]}


def test_search_expands_only_when_asked_with_kinds_direction_hops_and_path(client, agent):
    root, mid, leaf, note = chain(client, agent)
    [hit] = search(client, agent, "quarterly budget cut", limit=1)
    assert hit["id"] == root["id"] and hit["related"] == []  # search's default depth is 0
    one = related_of(client, agent, "quarterly budget cut", depth=1)
    assert set(one) == {mid["id"], note["id"]}
    assert (one[mid["id"]]["kind"], one[mid["id"]]["direction"], one[mid["id"]]["hops"]) == ("CAUSES", "out", 1)
    assert (one[note["id"]]["kind"], one[note["id"]]["direction"]) == ("SUPPORTS", "in")
    two = related_of(client, agent, "quarterly budget cut", depth=2)
    assert two[leaf["id"]]["path"] == [root["id"], mid["id"], leaf["id"]]
    assert (two[leaf["id"]]["hops"], two[leaf["id"]]["kinds"], two[leaf["id"]]["directions"]) == \
        (2, ["CAUSES", "CAUSES"], ["out", "out"])
    assert two[leaf["id"]]["text"] == "The Lisbon office opening slipped"
    assert set(related_of(client, agent, "quarterly budget cut", depth=3, kinds=["CAUSES"])) == {mid["id"], leaf["id"]}
    assert set(related_of(client, agent, "quarterly budget cut", depth=2, direction="in")) == {note["id"]}
    assert set(related_of(client, agent, "quarterly budget cut", depth=2, direction="out")) == {mid["id"], leaf["id"]}
    # From the leaf, against the edges: its causal chain back to the root.
    back = related_of(client, agent, "Lisbon office opening slipped", depth=3, direction="in", kinds=["CAUSES"])
    assert back[root["id"]]["path"] == [leaf["id"], mid["id"], root["id"]]


def test_superseded_memories_stay_out_of_expansion_unless_asked(client, agent):
    old = belief(client, agent, "Budget is $100 for the offsite", "$100", "inference")
    new = belief(client, agent, "Budget is $200 for the offsite", "$200", "user_explicit")
    cause = store(client, agent, "The offsite venue raised its prices")
    effect = store(client, agent, "Catering for the offsite was downgraded")
    assert link(client, agent, cause, old, "CAUSES").status_code == 201
    assert link(client, agent, old, effect, "CAUSES").status_code == 201
    # The superseded belief is neither returned nor walked through by default...
    hidden = related_of(client, agent, "offsite venue raised its prices", depth=3)
    assert old["id"] not in hidden and effect["id"] not in hidden
    # ... and comes back, with what lies beyond it, when superseded memories are shown.
    hit = search(client, agent, "offsite venue raised its prices", limit=1, include_superseded=True,
                 expand={"depth": 3})[0]
    shown = {r["id"]: r for r in hit["related"]}
    assert shown[old["id"]]["status"] == "superseded" and shown[effect["id"]]["path"] == \
        [cause["id"], old["id"], effect["id"]]
    # The successor is two hops away: SUPERSEDES (and the supersession's resolved CONTRADICTS) link them.
    assert shown[new["id"]]["hops"] == 2 and shown[new["id"]]["kinds"][0] == "CAUSES"


def test_expansion_screens_session_scope_as_search_does(client, agent):
    """A session's own memory shows only in that session; in it, the global belief the session
    overrides is hidden (the filter's EXISTS branch), also when reached by an edge."""
    glob = belief(client, agent, "Budget is $500 for the offsite", "$500", "document")
    trip = store(client, agent, "For this trip the budget is $900", provenance={"source": "user_explicit"},
                 claim={"subject": "user", "predicate": "budget_is", "value": "$900", "scope": "session",
                        "session_id": "trip-1"})
    venue = store(client, agent, "The offsite venue raised its prices")
    for target in (glob, trip):
        assert link(client, agent, venue, target, "CAUSES").status_code == 201
    outside = related_of(client, agent, "offsite venue raised its prices", depth=1)
    assert glob["id"] in outside and trip["id"] not in outside
    [hit] = search(client, agent, "offsite venue raised its prices", limit=1, session_id="trip-1",
                   expand={"depth": 1})
    assert hit["id"] == venue["id"] and [r["id"] for r in hit["related"]] == [trip["id"]]


def test_context_expands_one_hop_by_default_and_as_asked(client, agent):
    root, mid, leaf, note = chain(client, agent)
    body = {"agent": agent, "query": "quarterly budget cut", "max_memories": 1, "max_tokens": 2000}
    out = client.post("/v1/context", json=body).json()
    by_id = {m["id"]: m for m in out["memories"]}
    assert {root["id"], mid["id"], note["id"]} <= set(by_id)
    assert [(r["id"], r["hops"]) for r in by_id[root["id"]]["related"]] == \
        sorted([(mid["id"], 1), (note["id"], 1)], key=lambda r: {mid["id"]: 0, note["id"]: 1}[r[0]])
    for m in out["memories"]:  # each memory came from search, or one hop from a search hit
        assert m["via"] == "search" or (m["expanded_from"] and m["via"] in ("CAUSES", "SUPPORTS"))
    deep = client.post("/v1/context", json={**body, "expand": {"depth": 2, "kinds": ["CAUSES"]}}).json()
    deep_by_id = {m["id"]: m for m in deep["memories"]}
    assert {root["id"], mid["id"], leaf["id"]} <= set(deep_by_id)
    assert {(r["id"], r["hops"]) for r in deep_by_id[root["id"]]["related"]} == {(mid["id"], 1), (leaf["id"], 2)}
    none = client.post("/v1/context", json={**body, "expand": {"depth": 0}}).json()
    assert {m["via"] for m in none["memories"]} == {"search"} and len(none["memories"]) == 2
    assert all(m["related"] == [] for m in none["memories"])


def test_expand_lists_the_nearest_up_to_its_limit_and_says_when_it_cut(client, agent):
    root, mid, leaf, note = chain(client, agent)
    [full] = search(client, agent, "quarterly budget cut", limit=1, expand={"depth": 2})
    assert [r["id"] for r in full["related"]] == [mid["id"], note["id"], leaf["id"]]  # hops, then kind, then id
    assert full["related_truncated"] is False
    [cut] = search(client, agent, "quarterly budget cut", limit=1, expand={"depth": 2, "limit": 2})
    assert [r["id"] for r in cut["related"]] == [mid["id"], note["id"]] and cut["related_truncated"] is True
    [exact] = search(client, agent, "quarterly budget cut", limit=1, expand={"depth": 2, "limit": 3})
    assert len(exact["related"]) == 3 and exact["related_truncated"] is False
    # Context lists each hit's nearest the same way, and only those join its pool.
    body = {"agent": agent, "query": "quarterly budget cut", "max_memories": 1, "max_tokens": 2000}
    out = client.post("/v1/context", json={**body, "expand": {"depth": 1, "limit": 1}}).json()
    by_id = {m["id"]: m for m in out["memories"]}
    assert [r["id"] for r in by_id[root["id"]]["related"]] == [mid["id"]] and by_id[root["id"]]["related_truncated"]
    assert by_id[mid["id"]]["expanded_from"] == [root["id"]]
    assert all(m["id"] == mid["id"] for m in out["memories"] if root["id"] in m["expanded_from"])
    whole = client.post("/v1/context", json={**body, "expand": {"depth": 1}}).json()
    assert not {m["id"]: m for m in whole["memories"]}[root["id"]]["related_truncated"]


def test_bad_expand_options_get_422(client, agent):
    for expand, field in (({"depth": 4}, "expand.depth"), ({"depth": -1}, "expand.depth"),
                          ({"depth": "2"}, "expand.depth"), ({"depth": 1, "kinds": ["LIKES"]}, "expand.kinds"),
                          ({"depth": 1, "kinds": []}, "expand.kinds"), ({"depth": 1, "direction": "up"},
                                                                        "expand.direction"),
                          ({"depth": 1, "hops": 2}, "expand.hops"), ({"depth": 1, "limit": 0}, "expand.limit"),
                          ({"depth": 1, "limit": 51}, "expand.limit"), ({"depth": 1, "limit": "5"}, "expand.limit")):
        problem = assert_problem(client.post("/v1/search", json={"agent": agent, "query": "x", "expand": expand}), 422)
        assert any(e["field"].startswith(field) for e in problem["errors"]), problem
