// One key by id, revoked or not; never its digest.
// params: id
// returns: optional
MATCH (k:ApiKey {id: $id})
RETURN k.id AS id, k.name AS name, k.role AS role, k.agents AS agents, k.agent_pattern AS agent_pattern, k.sources AS sources,
       k.created_at AS created_at, k.revoked_at AS revoked_at
