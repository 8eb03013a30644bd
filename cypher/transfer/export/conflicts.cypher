// Export: a page of a tenant's conflicts, oldest first by the keyset (created_at, id), recorded no
// later than $until, each with the memories it involves and their roles.
// params: agent, until, after_created, after_id, limit
// returns: many
MATCH (c:Conflict {agent: $agent})
WHERE c.created_at <= datetime($until)
  AND ($after_created IS NULL
       OR c.created_at > datetime($after_created)
       OR (c.created_at = datetime($after_created) AND c.id > $after_id))
WITH c
ORDER BY c.created_at, c.id
LIMIT $limit
RETURN c {.*} AS conflict, [(c)-[i:INVOLVES]->(m:Memory {agent: $agent}) | {role: i.role, id: m.id}] AS involves
