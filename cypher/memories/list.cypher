// A page of one tenant's memories with their claims, newest first; (created_at, id) is a stable keyset cursor.
// params: agent, statuses, memory_types, after_created, after_id, limit
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses
  AND ($memory_types IS NULL OR m.memory_type IN $memory_types)
  AND ($after_created IS NULL
       OR m.created_at < datetime($after_created)
       OR (m.created_at = datetime($after_created) AND m.id < $after_id))
WITH m
ORDER BY m.created_at DESC, m.id DESC
LIMIT $limit
RETURN m {.*, embedding: null} AS memory, [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] AS claim
