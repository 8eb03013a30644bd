// The audit trail of one memory, oldest first, a page at a time: the keyset (at, id) of the last
// record served is ($after_at, $after_id), both null on the first page. The caller asks for one
// more than the page to know whether another follows.
// params: agent, id, after_at, after_id, limit
// returns: many
MATCH (o:Operation {agent: $agent})-[:TOUCHED]->(m:Memory {agent: $agent, id: $id})
WHERE $after_at IS NULL
   OR o.at > datetime($after_at)
   OR (o.at = datetime($after_at) AND o.id > $after_id)
WITH o
ORDER BY o.at, o.id
LIMIT $limit
RETURN o {.id, .op, .actor, .at, .before, .after, .job_id, .redacted} AS operation,
       [(o)-[:TOUCHED]->(t:Memory {agent: $agent}) | t.id] AS memory_ids
