// The pending conflicts a memory is part of, on either side, with the memory on the other side
// and that memory's status (a quarantined one may still be waiting on the conflict).
// params: agent, memory_id
// returns: many
MATCH (c:Conflict {agent: $agent, status: 'pending'})-[:INVOLVES]->(m:Memory {agent: $agent, id: $memory_id})
MATCH (c)-[:INVOLVES]->(other:Memory)
WHERE other.id <> m.id
RETURN c.id AS id, other.id AS other_id, other.status AS other_status
