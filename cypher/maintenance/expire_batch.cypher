// Archives up to $limit of a tenant's memories that expired by $now, each write-locked and read
// again first (a patch that moved its expiry later wins). Each keeps the status it had, to be
// restored to (maintenance/restore); answers what the audit records need.
// params: agent, now, limit
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.expires_at <= datetime($now) AND m.status IN ['active', 'disputed']
WITH m
ORDER BY m.expires_at, m.id
LIMIT $limit
SET m.locking = true
REMOVE m.locking
WITH m, m.status AS previous
WHERE m.expires_at <= datetime($now) AND previous IN ['active', 'disputed']
SET m.status = 'archived', m.archived_from = previous, m.archived_reason = 'expired', m.archived_at = datetime($now),
    m.updated_at = datetime($now), m.version = m.version + 1
RETURN m.id AS id, previous, m.expires_at AS expires_at, m.version AS version
