// How many of a tenant's memories expired by $now and are not archived yet.
// params: agent, now
// returns: scalar
MATCH (m:Memory {agent: $agent})
WHERE m.expires_at <= datetime($now) AND m.status IN ['active', 'disputed']
RETURN count(m) AS expired
