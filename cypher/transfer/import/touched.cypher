// Import: the TOUCHED edges of audit records this import just created.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (o:Operation {agent: $agent, id: row.operation_id})
MATCH (m:Memory {agent: $agent, id: row.memory_id})
CREATE (o)-[:TOUCHED]->(m)
RETURN count(*) AS touched
