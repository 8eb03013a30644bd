// Attaches a claim to a new memory, with its subject (and, when it names a thing, its value) as
// browsable entities.
// params: agent, memory_id, claim, value_entity
// returns: one
MATCH (m:Memory {agent: $agent, id: $memory_id})
CREATE (m)-[:ASSERTS]->(c:Claim)
SET c = $claim, c.agent = $agent,
    c.valid_from = datetime($claim.valid_from), c.valid_until = datetime($claim.valid_until)
// Entities are keyed (agent, name) under a uniqueness constraint: parallel claims share one.
MERGE (s:Entity {key: $agent + ' ' + $claim.subject})
ON CREATE SET s.agent = $agent, s.name = $claim.subject
CREATE (c)-[:ABOUT {role: 'subject'}]->(s)
FOREACH (name IN CASE WHEN $value_entity THEN [$claim.value] ELSE [] END |
  MERGE (v:Entity {key: $agent + ' ' + name})
  ON CREATE SET v.agent = $agent, v.name = name
  CREATE (c)-[:ABOUT {role: 'value'}]->(v))
RETURN c {.*} AS claim
