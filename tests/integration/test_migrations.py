"""Start-up repairs what older versions left behind, before the constraints that forbid it."""
from __future__ import annotations

from graph.store.schema import apply_migrations


def test_twin_sources_and_entities_are_merged_and_keyed(client, services, agent, cypher, run):
    # What parallel writers left before sources and entities had a key: twins, each linked.
    cypher("""
        UNWIND [1, 2] AS i
        CREATE (m:Memory {agent: $a, id: $a + '-m' + toString(i), text: 'twin ' + toString(i), status: 'active'})
        CREATE (s:Source {agent: $a, type: 'inference', ref: ''})
        CREATE (m)-[:FROM {at: datetime()}]->(s)
        CREATE (m)-[:ASSERTS]->(c:Claim {agent: $a, subject: 'user', predicate: 'p' + toString(i), value: 'v'})
        CREATE (e:Entity {agent: $a, name: 'user'})
        CREATE (c)-[:ABOUT {role: 'subject'}]->(e)""", a=agent)
    assert cypher("MATCH (s:Source {agent: $a}) RETURN count(s) AS n", a=agent) == [{"n": 2}]

    run(apply_migrations, services.runner)

    sources = cypher("MATCH (s:Source {agent: $a}) RETURN s.key AS key, COUNT { (s)<-[:FROM]-(:Memory) } AS memories",
                     a=agent)
    assert sources == [{"key": f"{agent} inference ", "memories": 2}]
    entities = cypher("MATCH (e:Entity {agent: $a}) RETURN e.key AS key, COUNT { (e)<-[:ABOUT {role: 'subject'}]-() } "
                      "AS claims", a=agent)
    assert entities == [{"key": f"{agent} user", "claims": 2}]
    # The repaired tenant takes new writes that merge onto the keyed nodes.
    response = client.post("/v1/memories", json={
        "agent": agent, "text": "The user lives in Porto", "claim": {"subject": "user", "predicate": "lives_in",
                                                                     "value": "Porto"}})
    assert response.status_code == 201, response.text
    assert cypher("MATCH (e:Entity {agent: $a, name: 'user'}) RETURN count(e) AS n", a=agent) == [{"n": 1}]
    assert cypher("MATCH (s:Source {agent: $a}) RETURN count(s) AS n", a=agent) == [{"n": 1}]
