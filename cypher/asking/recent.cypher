// What the asking handlers read from one tenant's memories without a similarity search: the
// memories the request's visibility block shows (its filter, exclusions included), optionally
// only those whose time (event_at, else valid_from, else created_at) falls in [$time_from,
// $time_to), only those that mention one of $mentions (each a name's word stems as stored, " hike ":
// a memory mentions the name when its stems hold every one, as keyword search matches stems), and,
// with $past set, only the historical or only the current ones. The newest $limit, with their
// claims; with $light, their ids and times only.
// params: light, time_from, time_to, past, mentions, limit, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, explain, exclude_needles, exclude_patterns
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses
WITH m, coalesce(m.event_at, m.valid_from, m.created_at) AS at
WHERE ($time_from IS NULL OR at >= datetime($time_from)) AND ($time_to IS NULL OR at < datetime($time_to))
  AND ($past IS NULL OR coalesce(m.historical, false) = $past)
  AND (size($mentions) = 0 OR any(name IN $mentions WHERE all(needle IN name WHERE m.stems CONTAINS needle)))
WITH m, at, CASE
  // include: retrieval/visibility
END AS reason
WHERE reason IS NULL OR $explain
WITH m, at ORDER BY at DESC, m.id LIMIT $limit
RETURN m.id AS id, at, CASE WHEN $light THEN null ELSE m {.*, embedding: null} END AS memory,
       CASE WHEN $light THEN null ELSE [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] END AS claim
