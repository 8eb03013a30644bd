// A tenant's audit records, newest first, a page at a time, filtered by op (any of $ops), actor,
// a memory they touched and a time window (strictly after $after, strictly before $before); a
// null filter is no filter. The keyset (at, id) of the last record served is ($cursor_at,
// $cursor_id), both null on the first page; the caller asks for one more than the page.
// params: agent, ops, actor, memory_id, after, before, cursor_at, cursor_id, limit
// returns: many
MATCH (o:Operation {agent: $agent})
WHERE ($ops IS NULL OR o.op IN $ops)
  AND ($actor IS NULL OR o.actor = $actor)
  AND ($after IS NULL OR o.at > datetime($after))
  AND ($before IS NULL OR o.at < datetime($before))
  AND ($cursor_at IS NULL
       OR o.at < datetime($cursor_at)
       OR (o.at = datetime($cursor_at) AND o.id < $cursor_id))
  AND ($memory_id IS NULL OR EXISTS { MATCH (o)-[:TOUCHED]->(:Memory {agent: $agent, id: $memory_id}) })
WITH o
ORDER BY o.at DESC, o.id DESC
LIMIT $limit
RETURN o {.id, .op, .actor, .at, .before, .after, .job_id, .redacted} AS operation,
       [(o)-[:TOUCHED]->(t:Memory {agent: $agent}) | t.id] AS memory_ids
