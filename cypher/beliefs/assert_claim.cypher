// Attaches a claim to a new memory, with its subject (and, when it names a thing, its value) as
// browsable entities.
// params: agent, memory_id, claim, subject, value, now
// returns: one
MATCH (m:Memory {agent: $agent, id: $memory_id})
CREATE (m)-[:ASSERTS]->(c:Claim)
SET c = $claim, c.agent = $agent,
    c.valid_from = datetime($claim.valid_from), c.valid_until = datetime($claim.valid_until)
// Entities are keyed (agent, normalised name) under a uniqueness constraint: parallel claims share
// one. The caller resolved known aliases to the key of their entity (graph/entities/claims.py).
MERGE (s:Entity {key: $subject.key})
ON CREATE SET s.agent = $agent, s.name = $subject.name, s.name_key = $subject.name_key, s.id = $subject.id,
              s.kind = $subject.kind, s.aliases = [], s.created_at = datetime($now)
ON MATCH SET s.kind = CASE WHEN coalesce(s.kind, 'other') = 'other' THEN $subject.kind ELSE s.kind END
CREATE (c)-[:ABOUT {role: 'subject'}]->(s)
FOREACH (v IN CASE WHEN $value IS NULL THEN [] ELSE [$value] END |
  MERGE (e:Entity {key: v.key})
  ON CREATE SET e.agent = $agent, e.name = v.name, e.name_key = v.name_key, e.id = v.id, e.kind = v.kind,
                e.aliases = [], e.created_at = datetime($now)
  ON MATCH SET e.kind = CASE WHEN coalesce(e.kind, 'other') = 'other' THEN v.kind ELSE e.kind END
  CREATE (c)-[:ABOUT {role: 'value'}]->(e))
RETURN c {.*} AS claim
