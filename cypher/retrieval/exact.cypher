// Exact ranking of a small tenant inside the database. At most $scan_cap memories of the shown
// statuses are counted; `candidates` equal to $scan_cap means the tenant is larger and the ANN
// index should answer, so then none is scored (hits empty): a tenant's first search in a process
// tries this scan before it knows the tenant's size. `similarity` is the backend's
// vector.similarity.cosine, calibrated to cosine by the caller. Rows: the best $limit shown
// memories, then (with $explain) the ones the filters hid, with their `reason`. Each carries what
// the rerank weighs.
// params: scan_cap, embedding, limit, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns, explain
// returns: one
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses AND m.embedding IS NOT NULL
WITH m LIMIT $scan_cap
WITH collect(m) AS pool
// No CALL subquery: on ArcadeDB one made this statement several times slower in a large graph.
// A tenant over the cap unwinds one null, which keeps the row that says how many were counted.
UNWIND CASE WHEN 0 < size(pool) < $scan_cap THEN pool ELSE [null] END AS m
WITH size(pool) AS candidates, m
WITH candidates, m, CASE
  WHEN m IS NULL THEN 'not_scored'
  // include: retrieval/visibility
END AS reason
WITH candidates, m, m.id AS id, reason,
     CASE WHEN reason IS NULL THEN vector.similarity.cosine(m.embedding, $embedding) END AS similarity
ORDER BY reason IS NULL DESC, similarity DESC, id
WITH candidates, collect(CASE WHEN m IS NOT NULL AND (reason IS NULL OR $explain)
                              THEN {id: id, similarity: similarity, reason: reason,
                                    confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                                    updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                                    event_ms: CASE WHEN m.event_at IS NOT NULL THEN m.event_at.epochMillis END,
                                    threaded: m.thread IS NOT NULL} END) AS rows
RETURN candidates, [r IN rows WHERE r.reason IS NULL][0..$limit] + [r IN rows WHERE r.reason IS NOT NULL] AS hits
