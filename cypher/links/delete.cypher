// Removes one SUPPORTS or CAUSES link between two memories of one tenant.
// params: agent, from_id, to_id, type
// returns: scalar
MATCH (a:Memory {agent: $agent, id: $from_id})-[r:SUPPORTS|CAUSES]->(b:Memory {agent: $agent, id: $to_id})
WHERE type(r) = $type
DELETE r
RETURN count(*) AS deleted
