// A memory evidences a typed relation between two entities of its tenant: the relation is keyed
// (type, from, to) under a uniqueness constraint, so parallel writers share one, and keeps every
// memory that evidences it. Its endpoints are merged under the relation's own lock.
// params: agent, memory_id, relation, now
// returns: one
MATCH (m:Memory {agent: $agent, id: $memory_id})
MATCH (a:Entity {agent: $agent, key: $relation.from_key})
MATCH (b:Entity {agent: $agent, key: $relation.to_key})
MERGE (r:Relation {key: $relation.key})
ON CREATE SET r.agent = $agent, r.id = $relation.id, r.type = $relation.type, r.created_at = datetime($now)
MERGE (r)-[:FROM]->(a)
MERGE (r)-[:TO]->(b)
CREATE (m)-[:EVIDENCES {at: datetime($now)}]->(r)
RETURN r.id AS id
