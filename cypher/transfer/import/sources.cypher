// Import: the provenance of memories this import just created: each source keyed per tenant, type
// and ref (as the write path keys them), linked with the time it was attached.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.memory_id})
MERGE (s:Source {key: row.key})
ON CREATE SET s.agent = $agent, s.type = row.type, s.ref = row.ref
MERGE (m)-[f:FROM]->(s)
ON CREATE SET f.at = datetime(row.at)
RETURN count(*) AS sources
