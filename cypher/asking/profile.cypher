// What is known about the user now, for a self-summary: the memories the visibility block shows
// (current beliefs: active, valid now, effective, not expired, within the sensitivity ceiling),
// without those stored as how things were (historical), the most important and trusted first.
// params: limit, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, explain, exclude_needles, exclude_patterns
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses AND NOT coalesce(m.historical, false)
WITH m, CASE
  // include: retrieval/visibility
END AS reason
WHERE reason IS NULL OR $explain
WITH m ORDER BY coalesce(m.importance, 0.5) * coalesce(m.confidence, m.trust, 0.5) DESC, m.created_at DESC, m.id
LIMIT $limit
RETURN m {.*, embedding: null} AS memory, [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] AS claim
