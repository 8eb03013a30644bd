// Deletes up to `limit` of a tenant's expired records (run beside a completion, so the records
// of an active tenant never pile up past their expiry).
// params: agent, now, limit
// returns: write
MATCH (r:IdempotencyRecord {agent: $agent})
WHERE r.expires_at <= $now
WITH r LIMIT $limit
DELETE r
