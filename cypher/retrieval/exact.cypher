// Exact ranking of a small tenant inside the database. At most $scan_cap memories of the shown
// statuses are scored; `candidates` equal to $scan_cap means the tenant is larger and the ANN
// index should answer. `similarity` is the backend's vector.similarity.cosine, calibrated to
// cosine by the caller. Rows: the best $limit shown memories, then (with $explain) the ones the
// filters hid, with their `reason`. Each carries what the rerank weighs.
// params: scan_cap, embedding, limit, agent, statuses, session_id, as_of, memory_types, tags, created_after, created_before, event_after, event_before, explain
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses AND m.embedding IS NOT NULL
WITH m LIMIT $scan_cap
WITH collect(m) AS pool
UNWIND pool AS m
WITH size(pool) AS candidates, m
WITH candidates, m, CASE
  // visibility:begin (the same in every search/ query; a test holds them equal)
  WHEN NOT m.status IN $statuses THEN m.status
  // Every test is null-safe: a WHEN that evaluates to null would let the memory through.
  WHEN m.session_id IS NOT NULL AND ($session_id IS NULL OR m.session_id <> $session_id) THEN 'scope_mismatch'
  WHEN $session_id IS NOT NULL AND m.session_id IS NULL AND m.claim_key IS NOT NULL
       AND EXISTS { MATCH (o:Memory {agent: $agent, status: 'active', session_id: $session_id, claim_key: m.claim_key}) }
    THEN 'scope_mismatch'
  WHEN (m.valid_from IS NOT NULL AND m.valid_from > datetime($as_of))
       OR (m.valid_until IS NOT NULL AND m.valid_until <= datetime($as_of)) THEN 'validity_mismatch'
  WHEN ($memory_types IS NOT NULL AND NOT m.memory_type IN $memory_types)
       OR NOT all(tag IN $tags WHERE tag IN coalesce(m.tags, []))
       OR ($created_after IS NOT NULL AND NOT m.created_at > datetime($created_after))
       OR ($created_before IS NOT NULL AND NOT m.created_at < datetime($created_before))
       OR ($event_after IS NOT NULL AND NOT coalesce(m.event_at > datetime($event_after), false))
       OR ($event_before IS NOT NULL AND NOT coalesce(m.event_at < datetime($event_before), false))
    THEN 'filtered'
  // visibility:end
END AS reason
WHERE reason IS NULL OR $explain
WITH candidates, m, m.id AS id, reason,
     CASE WHEN reason IS NULL THEN vector.similarity.cosine(m.embedding, $embedding) END AS similarity
ORDER BY reason IS NULL DESC, similarity DESC, id
WITH candidates, collect({id: id, similarity: similarity, reason: reason,
                          confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                          updated_ms: coalesce(m.updated_at, m.created_at).epochMillis}) AS rows
RETURN candidates, [r IN rows WHERE r.reason IS NULL][0..$limit] + [r IN rows WHERE r.reason IS NOT NULL] AS hits
