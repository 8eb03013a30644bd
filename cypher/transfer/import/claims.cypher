// Import: the claims of memories this import just created, with the entities they are about
// (keyed per tenant and name, as the write path keys them).
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.memory_id})
CREATE (m)-[:ASSERTS]->(c:Claim)
SET c = row.claim, c.agent = $agent,
    c.valid_from = datetime(row.claim.valid_from), c.valid_until = datetime(row.claim.valid_until)
WITH c, row
UNWIND row.about AS about
MERGE (e:Entity {key: $agent + ' ' + about.name})
ON CREATE SET e.agent = $agent, e.name = about.name
CREATE (c)-[:ABOUT {role: about.role}]->(e)
RETURN count(*) AS about
