"""Start-up repairs what older versions left behind, before the constraints that forbid it."""
from __future__ import annotations

from graph.core.tenant_token import tenant_token
from graph.retrieval import SearchQuery, Visibility, keywords
from graph.store.schema import apply_migrations, apply_schema, key_memories_by_tenant, stem_memories
from tests.helpers import store_many


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


def test_memories_stored_before_tenant_tokens_are_keyed_and_found_by_keyword_search(client, services, agent, cypher,
                                                                                      run):
    stored = store_many(client, agent, ["The heronry on the island has forty nests", "The user sold the old kayak"])
    cypher("MATCH (m:Memory {agent: $a}) REMOVE m.tenant_token", a=agent)  # as an older version stored them
    candidates = services.retrieval.candidates
    filters = Visibility.of(SearchQuery(agent=agent, text="heronry"), explain=False)
    candidates.hints.mark(filters.key, large=True)  # through the full-text index
    try:
        assert run(candidates.keyword, keywords.stemmed(["heronry"]), filters, 10).found == {}

        run(key_memories_by_tenant, services.runner)

        assert list(run(candidates.keyword, keywords.stemmed(["heronry"]), filters, 10).found) == [stored[0]["id"]]
    finally:
        candidates.hints.mark(filters.key, large=False)
    assert cypher("MATCH (m:Memory {agent: $a}) RETURN collect(DISTINCT m.tenant_token) AS t",
                  a=agent) == [{"t": [tenant_token(agent)]}]


def test_memories_stored_before_stems_are_stemmed_and_found_by_keyword_search(client, services, agent, cypher, run):
    """Memories stored before keyword search matched stems have no `stems`: start-up gives them theirs,
    and both keyword paths (a small tenant's scan, the full-text index) then find them by another form."""
    stored = store_many(client, agent, ["We went hiking at the heronry on Sunday", "The user sold the old kayak"])
    other = store_many(client, f"{agent}-other", ["Hiking boots for sale"])
    cypher("MATCH (m:Memory) WHERE m.agent IN [$a, $a + '-other'] REMOVE m.stems", a=agent)  # as stored before
    candidates = services.retrieval.candidates
    filters = Visibility.of(SearchQuery(agent=agent, text="hikes"), explain=False)
    assert run(candidates.keyword, keywords.stemmed(["hike"]), filters, 10).found == {}

    run(stem_memories, services.runner)

    assert cypher("MATCH (m:Memory {agent: $a}) RETURN m.id AS id, m.stems AS stems ORDER BY id", a=agent) == sorted(
        [{"id": stored[0]["id"], "stems": " we went hike at the heronri on sunday "},
         {"id": stored[1]["id"], "stems": " the user sold old kayak "}], key=lambda r: r["id"])
    assert cypher("MATCH (m:Memory {agent: $a}) RETURN m.stems AS stems", a=f"{agent}-other") == [
        {"stems": " hike boot for sale "}]
    assert list(run(candidates.keyword, keywords.stemmed(["hike"]), filters, 10).found) == [stored[0]["id"]]  # the scan
    candidates.hints.mark(filters.key, large=True)  # through the full-text index
    try:
        assert list(run(candidates.keyword, keywords.stemmed(["hike"]), filters, 10).found) == [stored[0]["id"]]
    finally:
        candidates.hints.mark(filters.key, large=False)
    assert other  # the other tenant's memory was stemmed, and never this tenant's hit


def test_start_up_replaces_the_older_full_text_indexes(services, run):
    """Graphs made before tenant tokens have `memory_text` over the text alone, and graphs made before
    keyword search matched stems `memory_text_by_tenant` over whole words; the schema drops both."""
    backend = services.backend

    def index_names() -> set[str]:
        if backend.is_neo4j:
            async def names():
                records, _, _ = await backend.driver.execute_query("SHOW INDEXES YIELD name",
                                                                   database_=backend.database)
                return {r["name"] for r in records}
            return run(names)
        return {row["name"] for row in backend.arcadedb.sql("SELECT name FROM schema:indexes")["result"]}

    if backend.is_neo4j:
        for fields in ("[m.text]", "[m.text, m.tenant_token]"):
            name = "memory_text" if fields == "[m.text]" else "memory_text_by_tenant"
            statement = f"CREATE FULLTEXT INDEX {name} IF NOT EXISTS FOR (m:Memory) ON EACH {fields}"
            run(lambda statement=statement: backend.driver.execute_query(statement, database_=backend.database))
    else:
        for name, fields in (("memory_text", "text"), ("memory_text_by_tenant", "text, tenant_token")):
            backend.arcadedb.sql(f"CREATE INDEX {name} IF NOT EXISTS ON Memory ({fields}) FULL_TEXT")
    assert {"memory_text", "memory_text_by_tenant", "memory_stems_by_tenant"} <= index_names()

    run(apply_schema, services.runner, backend, services.encoder.embedder.name, services.encoder.dimensions)

    names = index_names()
    assert "memory_stems_by_tenant" in names and not {"memory_text", "memory_text_by_tenant"} & names
