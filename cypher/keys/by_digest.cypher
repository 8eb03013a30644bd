// The live (not revoked) key whose secret has this SHA-256 digest, if any: one look-up per
// authenticated request (or per cache miss), through the api_key_digest_unique index.
// params: digest
// returns: optional
MATCH (k:ApiKey {digest: $digest})
WHERE k.revoked_at IS NULL
RETURN k.id AS id, k.name AS name, k.role AS role, k.agents AS agents, k.agent_pattern AS agent_pattern, k.sources AS sources,
       k.created_at AS created_at, k.revoked_at AS revoked_at
