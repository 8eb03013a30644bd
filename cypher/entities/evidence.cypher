// A memory evidences a typed relation between two entities of its tenant: the relation is keyed
// (type, from, to) under a uniqueness constraint, so parallel writers share one, and keeps every
// memory that evidences it. Its endpoints are merged under the relation's own lock.
// params: agent, memory_id, relation, now
// returns: one
// Both ends are reached through the claim this transaction just attached: under concurrent writers
// ArcadeDB can MERGE onto an entity another transaction committed (found through the unique index)
// that a fresh MATCH by property does not see yet (docs/backends.md 2.13).
MATCH (m:Memory {agent: $agent, id: $memory_id})-[:ASSERTS]->(:Claim)-[:ABOUT]->(a:Entity {agent: $agent})
WHERE a.key = $relation.from_key
MATCH (m)-[:ASSERTS]->(:Claim)-[:ABOUT]->(b:Entity {agent: $agent})
WHERE b.key = $relation.to_key
MERGE (r:Relation {key: $relation.key})
ON CREATE SET r.agent = $agent, r.id = $relation.id, r.type = $relation.type, r.created_at = datetime($now)
MERGE (r)-[:FROM]->(a)
MERGE (r)-[:TO]->(b)
CREATE (m)-[:EVIDENCES {at: datetime($now)}]->(r)
RETURN r.id AS id
