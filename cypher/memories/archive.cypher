// Soft delete: the memory stays in the graph as archived, hidden from default reads.
// Archiving an archived memory changes nothing.
// params: agent, id, now
MATCH (m:Memory {agent: $agent, id: $id})
FOREACH (_ IN CASE WHEN m.status <> 'archived' THEN [1] ELSE [] END |
  SET m.status = 'archived', m.archived_at = datetime($now),
      m.updated_at = datetime($now), m.version = m.version + 1)
RETURN m {.*, embedding: null} AS memory
