// What the asking handlers read from one tenant's memories without a similarity search: the
// memories the request's visibility block shows (its filter, exclusions included), optionally
// only those whose time (event_at, else valid_from, else created_at) falls in [$time_from,
// $time_to), only those that mention one of $mention_patterns (whole words; $mention_needles[i]
// is a word the text must contain first), and, with $past set, only the historical or only the
// current ones. The newest $limit, with their claims; with $light, their ids and times only.
// params: light, time_from, time_to, past, mention_needles, mention_patterns, limit, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, explain, exclude_needles, exclude_patterns
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses
WITH m, coalesce(m.event_at, m.valid_from, m.created_at) AS at
WHERE ($time_from IS NULL OR at >= datetime($time_from)) AND ($time_to IS NULL OR at < datetime($time_to))
  AND ($past IS NULL OR coalesce(m.historical, false) = $past)
  AND (size($mention_patterns) = 0 OR any(i IN range(0, size($mention_patterns) - 1)
       WHERE toLower(m.text) CONTAINS $mention_needles[i] AND toLower(m.text) =~ $mention_patterns[i]))
WITH m, at, CASE
  // include: retrieval/visibility
END AS reason
WHERE reason IS NULL OR $explain
WITH m, at ORDER BY at DESC, m.id LIMIT $limit
RETURN m.id AS id, at, CASE WHEN $light THEN null ELSE m {.*, embedding: null} END AS memory,
       CASE WHEN $light THEN null ELSE [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] END AS claim
