// Stores recomputed trust (confidence equals trust) on a batch of a tenant's memories.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.id})
SET m.trust = row.trust, m.confidence = row.trust
RETURN count(m) AS updated
