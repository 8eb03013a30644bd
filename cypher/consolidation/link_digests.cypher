// A digest linked to the memories it summarises: (digest)-[:DIGEST_OF]->(member), engine-owned.
// params: agent, now, rows
// returns: scalar
UNWIND $rows AS row
MATCH (d:Memory {agent: $agent, id: row.digest})
UNWIND row.members AS mid
MATCH (m:Memory {agent: $agent, id: mid})
MERGE (d)-[e:DIGEST_OF]->(m)
ON CREATE SET e.created_at = datetime($now), e.created_by = 'consolidation', e.note = row.note
RETURN count(e) AS linked
