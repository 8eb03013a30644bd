// One conflict of a tenant with the ids of both memories.
// params: agent, id
// returns: optional
MATCH (c:Conflict {agent: $agent, id: $id})-[:INVOLVES {role: 'new'}]->(n:Memory {agent: $agent})
MATCH (c)-[:INVOLVES {role: 'existing'}]->(e:Memory {agent: $agent})
RETURN c {.*} AS conflict, n.id AS new_id, e.id AS existing_id
