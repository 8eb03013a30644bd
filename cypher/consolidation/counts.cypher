// Consolidation: how many memories a tenant holds, and how many of them are active (the report's
// before and after).
// params: agent
// returns: one
MATCH (m:Memory {agent: $agent})
RETURN count(m) AS total, count(CASE WHEN m.status = 'active' THEN 1 END) AS active
