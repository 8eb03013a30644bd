// Revokes a key (kept, with when, for the record); a second revocation keeps the first time.
// No row: no such key.
// params: id, now
// returns: optional
MATCH (k:ApiKey {id: $id})
SET k.revoked_at = coalesce(k.revoked_at, $now)
RETURN k.id AS id, k.name AS name, k.role AS role, k.agents AS agents, k.agent_pattern AS agent_pattern, k.sources AS sources,
       k.created_at AS created_at, k.revoked_at AS revoked_at
