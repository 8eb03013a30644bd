// Import: which of these memory ids the tenant holds (edges, conflicts and audit records may only
// point at those).
// params: agent, ids
// returns: many
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
RETURN m.id AS id
