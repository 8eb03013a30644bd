"""The entity graph through the HTTP API (issue 11 item 3): names deduplicated per tenant,
relationships derived from claims, closed (never deleted) when the belief changes, neighbourhood,
path, what we know about X, operator merge and aliases, as_of, tenant isolation, hard delete and
restart survival."""
from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from api.app import create_app
from tests.conftest import backend_test_settings
from tests.helpers import assert_problem
from tests.integration.test_api_keys import bearer, issue


def claim(client, agent, subject, predicate, value, source="user_explicit", **extra):
    response = client.post("/v1/memories", json={
        "agent": agent, "text": f"{subject} {predicate} {value}", "provenance": {"source": source},
        "claim": {"subject": subject, "predicate": predicate, "value": value, **extra}})
    assert response.status_code in (200, 201), response.text
    return response.json()


def entity(client, agent, name) -> dict:
    response = client.get("/v1/entities", params={"agent": agent, "name": name})
    assert response.status_code == 200, response.text
    [found] = response.json()["entities"]
    return found


def relationships(client, agent, name, **params) -> list[dict]:
    response = client.get(f"/v1/entities/{entity(client, agent, name)['id']}", params={"agent": agent, **params})
    assert response.status_code == 200, response.text
    return response.json()["relationships"]


def edge(r: dict) -> tuple[str, str, str]:
    return r["source"]["name"], r["type"], r["target"]["name"]


def test_names_are_deduplicated_by_case_and_spaces_and_take_a_kind(client, agent):
    claim(client, agent, "user", "employer", "Acme Corp")
    claim(client, agent, "Dana", "employer", "ACME  CORP")
    claim(client, agent, "Acme   Corp", "headquarters", "Seattle")
    listed = client.get("/v1/entities", params={"agent": agent}).json()["entities"]
    assert sorted(e["name"] for e in listed) == ["Acme Corp", "Dana", "Seattle", "user"]
    acme = entity(client, agent, "acme corp")
    assert (acme["kind"], acme["mentions"]) == ("organisation", 3)
    assert entity(client, agent, "Seattle")["kind"] == "place"
    assert entity(client, agent, "user")["kind"] == "person"
    only_places = client.get("/v1/entities", params={"agent": agent, "kind": "place"}).json()["entities"]
    assert [e["name"] for e in only_places] == ["Seattle"]


def test_a_claim_evidences_a_relationship_and_a_change_closes_it_as_history(client, agent):
    acme = claim(client, agent, "user", "employer", "Acme", valid_from="2024-01-01T00:00:00Z")
    [works] = relationships(client, agent, "user")
    assert edge(works) == ("user", "works_at", "Acme")
    assert works["current"] and works["valid_until"] is None and works["memory_ids"] == [acme["id"]]
    assert works["mentions"] == 1 and 0 < works["strength"] <= works["trust"]
    assert works["valid_from"].startswith("2024-01-01")

    globex = claim(client, agent, "user", "employer", "Globex", valid_from="2025-06-01T00:00:00Z")
    assert acme["id"] in globex["superseded"]
    now = {edge(r): r for r in relationships(client, agent, "user")}
    assert set(now) == {("user", "works_at", "Acme"), ("user", "works_at", "Globex")}
    old = now[("user", "works_at", "Acme")]
    assert not old["current"] and old["valid_until"] is not None, "closed, kept as history, not deleted"
    assert now[("user", "works_at", "Globex")]["current"]
    # as_of: what held then, by the valid windows.
    then = relationships(client, agent, "user", as_of="2024-07-01T00:00:00Z")
    assert [edge(r) for r in then] == [("user", "works_at", "Acme")]
    assert [edge(r) for r in relationships(client, agent, "user", as_of="2023-01-01T00:00:00Z")] == []


def test_strength_grows_with_evidence_and_trust(client, agent):
    claim(client, agent, "Dana", "friend", "Lee", source="inference")
    claim(client, agent, "Dana", "lives_in", "Paris", source="user_explicit")
    claim(client, agent, "Sam", "lives_in", "Paris", source="user_explicit")
    claim(client, agent, "Sam", "lives_in", "Paris", source="document")  # corroborates or adds evidence
    rels = {edge(r): r for r in relationships(client, agent, "Dana")}
    weak, strong = rels[("Dana", "knows", "Lee")], rels[("Dana", "lives_in", "Paris")]
    assert weak["trust"] < strong["trust"] and weak["strength"] < strong["strength"]
    for r in rels.values():
        expected = r["trust"] * (1 - 0.5 ** r["mentions"])
        assert abs(r["strength"] - expected) < 1e-3, "a mention made just now has recency 1"


def build_graph(client, agent):
    """user -works_at-> Acme -located_in-> Seattle; user -knows-> Dana -lives_in-> Paris."""
    claim(client, agent, "user", "employer", "Acme")
    claim(client, agent, "Acme", "headquarters", "Seattle")
    claim(client, agent, "user", "friend", "Dana")
    return claim(client, agent, "Dana", "lives_in", "Paris")


def test_neighbourhood_to_depth_n_is_ready_to_draw(client, agent):
    build_graph(client, agent)
    user = entity(client, agent, "user")
    one = client.get(f"/v1/entities/{user['id']}/neighbourhood", params={"agent": agent}).json()
    assert one["root"] == user["id"]
    assert sorted((n["entity"]["name"], n["hops"]) for n in one["nodes"]) == [("Acme", 1), ("Dana", 1), ("user", 0)]
    assert sorted(edge(e) for e in one["edges"]) == [("user", "knows", "Dana"), ("user", "works_at", "Acme")]
    two = client.get(f"/v1/entities/{user['id']}/neighbourhood", params={"agent": agent, "depth": 2}).json()
    assert sorted((n["entity"]["name"], n["hops"]) for n in two["nodes"]) == [
        ("Acme", 1), ("Dana", 1), ("Paris", 2), ("Seattle", 2), ("user", 0)]
    ids = {n["entity"]["id"] for n in two["nodes"]}
    assert all(e["source"]["id"] in ids and e["target"]["id"] in ids for e in two["edges"])
    assert_problem(client.get(f"/v1/entities/{user['id']}/neighbourhood", params={"agent": agent, "depth": 9}),
                   422, "depth")


def test_path_between_two_entities_is_bounded(client, agent):
    build_graph(client, agent)
    seattle, paris = entity(client, agent, "Seattle"), entity(client, agent, "Paris")
    response = client.get(f"/v1/entities/{seattle['id']}/path/{paris['id']}", params={"agent": agent})
    assert response.status_code == 200, response.text
    path = response.json()
    assert [e["name"] for e in path["entities"]] == ["Seattle", "Acme", "user", "Dana", "Paris"]
    assert [r["type"] for r in path["relationships"]] == ["located_in", "works_at", "knows", "lives_in"]
    assert_problem(client.get(f"/v1/entities/{seattle['id']}/path/{paris['id']}",
                              params={"agent": agent, "max_hops": 3}), 404)
    assert_problem(client.get(f"/v1/entities/{seattle['id']}/path/{uuid.uuid4()}", params={"agent": agent}), 404)


def test_path_and_neighbourhood_follow_only_what_held_at_as_of(client, agent):
    claim(client, agent, "user", "employer", "Acme", valid_from="2024-01-01T00:00:00Z")
    claim(client, agent, "Acme", "headquarters", "Seattle", valid_from="2020-01-01T00:00:00Z")
    claim(client, agent, "user", "employer", "Globex", valid_from="2025-06-01T00:00:00Z")
    user, seattle = entity(client, agent, "user"), entity(client, agent, "Seattle")
    assert_problem(client.get(f"/v1/entities/{user['id']}/path/{seattle['id']}", params={"agent": agent}), 404)
    then = client.get(f"/v1/entities/{user['id']}/path/{seattle['id']}",
                      params={"agent": agent, "as_of": "2024-06-01T00:00:00Z"})
    assert then.status_code == 200, then.text
    assert [e["name"] for e in then.json()["entities"]] == ["user", "Acme", "Seattle"]
    now = client.get(f"/v1/entities/{user['id']}/neighbourhood", params={"agent": agent}).json()
    assert sorted(n["entity"]["name"] for n in now["nodes"]) == ["Globex", "user"]


def test_what_do_we_know_about_x_groups_relationships_and_memories(client, agent):
    build_graph(client, agent)
    claim(client, agent, "Lee", "employer", "Acme")
    about = client.get(f"/v1/entities/{entity(client, agent, 'Acme')['id']}/about", params={"agent": agent}).json()
    assert about["entity"]["name"] == "Acme"
    groups = {g["type"]: sorted(edge(r) for r in g["relationships"]) for g in about["relationships"]}
    assert groups == {"located_in": [("Acme", "located_in", "Seattle")],
                      "works_at": [("Lee", "works_at", "Acme"), ("user", "works_at", "Acme")]}
    memories = {g["predicate"]: sorted((m["subject"], m["role"]) for m in g["memories"]) for g in about["memories"]}
    assert memories == {"employer": [("Lee", "value"), ("user", "value")], "headquarters": [("Acme", "subject")]}


def test_operator_merge_moves_claims_relationships_and_evidence_and_keeps_the_name(client, agent):
    claim(client, agent, "user", "employer", "Acme")
    dana = claim(client, agent, "Dana", "employer", "Acme Incorporated")
    claim(client, agent, "Acme Incorporated", "headquarters", "Seattle")
    acme, inc = entity(client, agent, "Acme"), entity(client, agent, "Acme Incorporated")
    writer = issue(client, "write", [agent])
    body = {"agent": agent, "keep": acme["id"], "merge": inc["id"]}
    assert_problem(client.post("/v1/entities:merge", json=body, headers=bearer(writer)), 403)
    response = client.post("/v1/entities:merge", json=body)
    assert response.status_code == 200, response.text
    merged = response.json()
    assert merged["id"] == acme["id"] and merged["aliases"] == ["Acme Incorporated"] and merged["mentions"] == 3
    names = [e["name"] for e in client.get("/v1/entities", params={"agent": agent}).json()["entities"]]
    assert "Acme Incorporated" not in names
    assert entity(client, agent, "acme incorporated")["id"] == acme["id"], "the merged name resolves to the kept one"
    rels = {edge(r): r for r in relationships(client, agent, "Acme")}
    assert set(rels) == {("user", "works_at", "Acme"), ("Dana", "works_at", "Acme"), ("Acme", "located_in", "Seattle")}
    assert rels[("Dana", "works_at", "Acme")]["memory_ids"] == [dana["id"]]
    # A later claim naming the merged name lands on the kept entity, folding into its relation.
    lee = claim(client, agent, "user", "employer", "ACME Incorporated", source="document")
    rels = {edge(r): r for r in relationships(client, agent, "Acme")}
    assert lee["id"] in rels[("user", "works_at", "Acme")]["memory_ids"]
    assert_problem(client.post("/v1/entities:merge", json={**body, "merge": acme["id"]}), 422)
    assert_problem(client.post("/v1/entities:merge", json=body), 404)


def test_merge_folds_twin_relations_into_one(client, agent):
    first = claim(client, agent, "user", "employer", "Acme")
    second = claim(client, agent, "Lee", "employer", "Acme Co")
    third = claim(client, agent, "user", "colleague", "Lee")
    claim(client, agent, "user", "employer", "Acme Co", source="document")
    acme, co = entity(client, agent, "Acme"), entity(client, agent, "Acme Co")
    assert client.post("/v1/entities:merge",
                       json={"agent": agent, "keep": acme["id"], "merge": co["id"]}).status_code == 200
    rels = {edge(r): r for r in relationships(client, agent, "Acme")}
    assert set(rels) == {("user", "works_at", "Acme"), ("Lee", "works_at", "Acme")}
    assert first["id"] in rels[("user", "works_at", "Acme")]["memory_ids"]
    assert len(rels[("user", "works_at", "Acme")]["memory_ids"]) == 2
    assert rels[("Lee", "works_at", "Acme")]["memory_ids"] == [second["id"]]
    assert {edge(r) for r in relationships(client, agent, "Lee")} >= {("user", "knows", "Lee")}
    assert third["id"]


def test_known_aliases_resolve_new_claims_and_an_alias_of_another_entity_is_refused(client, agent):
    claim(client, agent, "user", "employer", "International Business Machines")
    claim(client, agent, "user", "friend", "Dana")
    ibm, dana = entity(client, agent, "International Business Machines"), entity(client, agent, "Dana")
    response = client.patch(f"/v1/entities/{ibm['id']}", json={"agent": agent, "add_aliases": ["IBM", " Big  Blue "]})
    assert response.status_code == 200, response.text
    assert response.json()["aliases"] == ["IBM", "Big Blue"]
    claim(client, agent, "Sam", "employer", "IBM")
    assert entity(client, agent, "ibm")["id"] == ibm["id"]
    assert {edge(r) for r in relationships(client, agent, "Sam")} == \
        {("Sam", "works_at", "International Business Machines")}
    assert_problem(client.patch(f"/v1/entities/{ibm['id']}", json={"agent": agent, "add_aliases": ["dana"]}), 409)
    assert_problem(client.patch(f"/v1/entities/{dana['id']}", json={"agent": agent, "kind": "planet"}), 422, "kind")
    assert client.patch(f"/v1/entities/{dana['id']}",
                        json={"agent": agent, "kind": "person"}).json()["kind"] == "person"


def test_tenants_never_see_each_others_entities(client, agent):
    other = f"{agent}-other"
    build_graph(client, agent)
    build_graph(client, other)
    mine, theirs = entity(client, agent, "user"), entity(client, other, "user")
    assert mine["id"] != theirs["id"]
    assert_problem(client.get(f"/v1/entities/{theirs['id']}", params={"agent": agent}), 404)
    assert_problem(client.get(f"/v1/entities/{theirs['id']}/about", params={"agent": agent}), 404)
    assert_problem(client.get(f"/v1/entities/{mine['id']}/path/{entity(client, other, 'Paris')['id']}",
                              params={"agent": agent}), 404)
    hood = client.get(f"/v1/entities/{mine['id']}/neighbourhood", params={"agent": agent, "depth": 3}).json()
    assert len(hood["nodes"]) == 5 and all(n["entity"]["id"] != theirs["id"] for n in hood["nodes"])
    assert_problem(client.post("/v1/entities:merge", json={"agent": agent, "keep": mine["id"],
                                                           "merge": theirs["id"]}), 404)
    assert {e["id"] for e in client.get("/v1/entities", params={"agent": agent}).json()["entities"]}.isdisjoint(
        {e["id"] for e in client.get("/v1/entities", params={"agent": other}).json()["entities"]})


def test_hard_delete_removes_the_memory_evidence_and_what_only_it_named(client, agent, cypher):
    build_graph(client, agent)
    # Another slot whose predicate maps to the same relation: a second memory evidencing it.
    paris_memory = claim(client, agent, "Dana", "city", "Paris")
    only = claim(client, agent, "Dana", "born_in", "Lyon")
    assert client.delete(f"/v1/memories/{only['id']}",
                         params={"agent": agent, "hard": "true"}).status_code in (200, 204)
    assert client.get("/v1/entities", params={"agent": agent, "name": "Lyon"}).json()["entities"] == []
    assert ("Dana", "born_in", "Lyon") not in {edge(r) for r in relationships(client, agent, "Dana")}
    assert client.delete(f"/v1/memories/{paris_memory['id']}",
                         params={"agent": agent, "hard": "true"}).status_code in (200, 204)
    [lives] = [r for r in relationships(client, agent, "Dana") if r["type"] == "lives_in"]
    assert paris_memory["id"] not in lives["memory_ids"] and len(lives["memory_ids"]) == 1
    left = cypher("MATCH (r:Relation {agent: $agent}) WHERE NOT EXISTS { (:Memory)-[:EVIDENCES]->(r) } "
                  "RETURN count(r) AS n", agent=agent)
    assert left == [{"n": 0}]


def test_the_entity_graph_survives_a_restart(backend_settings, embedder, tmp_path):
    settings = backend_test_settings("neo4j" if backend_settings.backend == "neo4j" else "arcadedb", tmp_path / "data")
    agent = f"t-{uuid.uuid4().hex[:12]}"
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        build_graph(client, agent)
        claim(client, agent, "user", "employer", "Globex")
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        rels = {edge(r): r["current"] for r in relationships(client, agent, "user")}
        assert rels == {("user", "works_at", "Acme"): False, ("user", "works_at", "Globex"): True,
                        ("user", "knows", "Dana"): True}
        paris = entity(client, agent, "Paris")
        path = client.get(f"/v1/entities/{entity(client, agent, 'user')['id']}/path/{paris['id']}",
                          params={"agent": agent}).json()
        assert [e["name"] for e in path["entities"]] == ["user", "Dana", "Paris"]


def test_entities_an_older_version_keyed_by_exact_name_are_folded_and_rekeyed(client, services, agent, cypher, run):
    from graph.store.schema import apply_migrations
    # Before names were normalised: "Acme" and "ACME " were two entities, keyed by the exact name.
    cypher("""
        UNWIND ['Acme', 'ACME '] AS name
        CREATE (m:Memory {agent: $a, id: $a + '-' + name, text: 'works at ' + name, status: 'active'})
        CREATE (m)-[:ASSERTS]->(c:Claim {agent: $a, subject: 'user', predicate: 'employer', value: name})
        CREATE (e:Entity {agent: $a, name: name, key: $a + ' ' + name})
        CREATE (c)-[:ABOUT {role: 'value'}]->(e)""", a=agent)
    run(apply_migrations, services.runner)
    rows = cypher("MATCH (e:Entity {agent: $a}) RETURN e.key AS key, e.id IS NOT NULL AS has_id, e.kind AS kind, "
                  "size([(c:Claim)-[:ABOUT]->(e) | c]) AS claims", a=agent)
    assert rows == [{"key": f"{agent} acme", "has_id": True, "kind": "other", "claims": 2}]
    assert entity(client, agent, "acme")["mentions"] == 2
    claim(client, agent, "Lee", "employer", "Acme")
    assert len(client.get("/v1/entities", params={"agent": agent}).json()["entities"]) == 2  # Acme, Lee


def test_parallel_claims_share_one_entity_and_one_relation(client, agent, cypher):
    """Different slots (subjects and predicates) naming the same things at once: the keys'
    constraints leave one entity per name and one relation per (type, from, to), with all evidence."""
    from concurrent.futures import ThreadPoolExecutor
    jobs = [(s, p) for s in ("Dana", "DANA", "dana ") for p in ("employer", "works_for", "company", "works_at")]

    def write(job):
        subject, predicate = job
        return client.post("/v1/memories", json={
            "agent": agent, "text": f"{subject} {predicate} Acme",
            "claim": {"subject": subject, "predicate": predicate,
                      "value": "ACME" if predicate == "company" else "Acme"}})

    with ThreadPoolExecutor(max_workers=12) as pool:
        responses = list(pool.map(write, jobs))
    assert all(r.status_code in (200, 201) for r in responses), [r.text for r in responses if r.status_code >= 300]
    names = sorted(e["name"].lower() for e in client.get("/v1/entities", params={"agent": agent}).json()["entities"])
    assert names == ["acme", "dana"]
    [works] = relationships(client, agent, "dana")
    memories = {r.json()["id"] for r in responses}
    assert edge(works)[1] == "works_at" and set(works["memory_ids"]) == memories
    edges = cypher("MATCH (r:Relation {agent: $a})-[e:FROM|TO]->() RETURN count(e) AS n", a=agent)
    assert edges == [{"n": 2}]
