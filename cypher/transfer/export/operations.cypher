// Export: a page of a tenant's audit records, oldest first by the keyset (at, id), made no later
// than $until, each with the ids of the memories it touched.
// params: agent, until, after_at, after_id, limit
// returns: many
MATCH (o:Operation {agent: $agent})
WHERE o.at <= datetime($until)
  AND ($after_at IS NULL
       OR o.at > datetime($after_at)
       OR (o.at = datetime($after_at) AND o.id > $after_id))
WITH o
ORDER BY o.at, o.id
LIMIT $limit
RETURN o {.*} AS operation,
       [(o)-[:TOUCHED]->(m:Memory {agent: $agent}) WHERE m.created_at <= datetime($until) | m.id] AS memory_ids
