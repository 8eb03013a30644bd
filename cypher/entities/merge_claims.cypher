// Merge, step 2: claims about the entity that goes are about the one kept, each in its role.
// params: agent, keep_id, gone_id
// returns: scalar
MATCH (keep:Entity {agent: $agent, id: $keep_id})
MATCH (c:Claim {agent: $agent})-[a:ABOUT]->(gone:Entity {agent: $agent, id: $gone_id})
CREATE (c)-[:ABOUT {role: a.role}]->(keep)
DELETE a
RETURN count(*) AS moved
