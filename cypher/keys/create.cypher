// Issues an API key: only the SHA-256 digest of its secret is stored, never the secret.
// Times are epoch milliseconds.
// The sources its writes may claim: a list, or null for any.
// params: id, digest, key_name, role, agents, agent_pattern, sources, now
// returns: write
CREATE (:ApiKey {id: $id, digest: $digest, name: $key_name, role: $role, agents: $agents,
                 agent_pattern: $agent_pattern, sources: $sources, created_at: $now})
