// How many of a tenant's memories the decay job weighs: active, below the exemption, and untouched
// (not used, changed or stored) since $cutoff.
// params: agent, cutoff, exempt
// returns: scalar
MATCH (m:Memory {agent: $agent})
WHERE m.status = 'active' AND m.importance < $exempt AND m.updated_at < datetime($cutoff)
  AND coalesce(m.last_accessed_at, m.created_at) < datetime($cutoff)
RETURN count(m) AS candidates
