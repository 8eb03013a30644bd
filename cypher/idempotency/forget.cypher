// Drops one expired record before its key is used again.
// params: agent, id, now
// returns: write
MATCH (r:IdempotencyRecord {id: $id, agent: $agent})
WHERE r.expires_at <= $now
DELETE r
