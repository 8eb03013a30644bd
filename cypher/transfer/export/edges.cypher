// Export: the edges from one page of a tenant's memories (the same keyset as transfer/export/memories)
// to its other memories, of every type (SUPPORTS, CAUSES, SUPERSEDES, CONTRADICTS, ...), with their
// properties. One row per memory of the page, edges or not, so the caller can move the cursor.
// Edges to memories created after $until are left out, as those memories are.
// params: agent, until, after_created, after_id, limit
// returns: many
MATCH (a:Memory {agent: $agent})
WHERE a.created_at <= datetime($until)
  AND ($after_created IS NULL
       OR a.created_at > datetime($after_created)
       OR (a.created_at = datetime($after_created) AND a.id > $after_id))
WITH a
ORDER BY a.created_at, a.id
LIMIT $limit
RETURN a.id AS id, a.created_at AS created_at,
       [(a)-[r]->(b:Memory {agent: $agent}) WHERE b.created_at <= datetime($until)
          | {type: type(r), to: b.id, props: properties(r)}] AS edges
