// Explain only, for exact ranking: how many of the tenant's memories a status filter hid.
// params: agent, statuses
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE NOT m.status IN $statuses AND m.embedding IS NOT NULL
RETURN m.status AS status, count(*) AS n
