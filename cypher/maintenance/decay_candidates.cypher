// A page of the memories the decay job weighs (as decay_count counts them), in (created_at, id)
// order after the keyset ($after_created, $after_id), null on the first page; with what the decay
// formula reads (graph/maintenance/decay_rules.py).
// params: agent, cutoff, exempt, after_created, after_id, limit
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.status = 'active' AND m.importance < $exempt AND m.updated_at < datetime($cutoff)
  AND coalesce(m.last_accessed_at, m.created_at) < datetime($cutoff)
  AND ($after_created IS NULL OR m.created_at > datetime($after_created)
       OR (m.created_at = datetime($after_created) AND m.id > $after_id))
WITH m
ORDER BY m.created_at, m.id
LIMIT $limit
RETURN m.id AS id, m.importance AS importance, m.created_at AS created_at, m.updated_at AS updated_at,
       m.last_accessed_at AS last_accessed_at, coalesce(m.access_count, 0) AS access_count,
       coalesce(m.reinforcements, 0) AS reinforcements, m.version AS version
