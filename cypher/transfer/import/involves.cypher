// Import: the INVOLVES edges (with their role) of conflicts this import just created.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (c:Conflict {agent: $agent, id: row.conflict_id})
MATCH (m:Memory {agent: $agent, id: row.memory_id})
CREATE (c)-[:INVOLVES {role: row.role}]->(m)
RETURN count(*) AS involves
