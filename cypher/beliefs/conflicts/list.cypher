// A tenant's conflicts, newest first, with both sides and their claims; pending only unless
// resolved ones are asked for.
// params: agent, subject, predicate, include_resolved, limit
// returns: many
MATCH (c:Conflict {agent: $agent})-[:INVOLVES {role: 'new'}]->(n:Memory {agent: $agent})
MATCH (c)-[:INVOLVES {role: 'existing'}]->(e:Memory {agent: $agent})
WHERE $include_resolved OR c.status = 'pending'
OPTIONAL MATCH (n)-[:ASSERTS]->(nc:Claim)
OPTIONAL MATCH (e)-[:ASSERTS]->(ec:Claim)
WITH c, n, e, nc, ec
WHERE ($subject IS NULL OR nc.subject = $subject OR ec.subject = $subject)
  AND ($predicate IS NULL OR nc.predicate = $predicate OR ec.predicate = $predicate)
RETURN c {.*} AS conflict, n.id AS new_id, n.status AS new_status, e.id AS existing_id,
       e.status AS existing_status, nc {.*} AS new_claim, ec {.*} AS existing_claim
ORDER BY c.created_at DESC, c.id
LIMIT $limit
