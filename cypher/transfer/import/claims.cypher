// Import: the claims of memories this import just created, with the entities they are about
// (keyed and kinded as the write path makes them: graph/entities/claims.py).
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.memory_id})
CREATE (m)-[:ASSERTS]->(c:Claim)
SET c = row.claim, c.agent = $agent,
    c.valid_from = datetime(row.claim.valid_from), c.valid_until = datetime(row.claim.valid_until)
WITH m, c, row
UNWIND row.about AS about
MERGE (e:Entity {key: about.key})
ON CREATE SET e.agent = $agent, e.name = about.name, e.name_key = about.name_key, e.id = about.id, e.kind = about.kind,
              e.aliases = [], e.created_at = m.created_at
CREATE (c)-[:ABOUT {role: about.role}]->(e)
RETURN count(*) AS about
