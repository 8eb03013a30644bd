// Every issued key, newest first, revoked ones included; never their digests.
// returns: many
MATCH (k:ApiKey)
RETURN k.id AS id, k.name AS name, k.role AS role, k.agents AS agents, k.agent_pattern AS agent_pattern, k.sources AS sources,
       k.created_at AS created_at, k.revoked_at AS revoked_at
ORDER BY k.created_at DESC, k.id
