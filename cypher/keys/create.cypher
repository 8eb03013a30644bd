// Issues an API key: only the SHA-256 digest of its secret is stored, never the secret.
// Times are epoch milliseconds.
// params: id, digest, key_name, role, agents, agent_pattern, now
// returns: write
CREATE (:ApiKey {id: $id, digest: $digest, name: $key_name, role: $role, agents: $agents,
                 agent_pattern: $agent_pattern, created_at: $now})
