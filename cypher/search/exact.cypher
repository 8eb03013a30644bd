// Exact ranking of a small tenant inside the database. At most $scan_cap candidates are scored;
// `candidates` equal to $scan_cap means the tenant is larger and the ANN index should answer.
// `similarity` is the backend's vector.similarity.cosine, calibrated to cosine at start-up.
// Session claims show only in their own session, where they hide global claims of the same
// subject and predicate.
// params: agent, statuses, memory_types, session_id, scan_cap, embedding, limit
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses AND ($memory_types IS NULL OR m.memory_type IN $memory_types)
  AND m.embedding IS NOT NULL
  AND (m.session_id IS NULL OR m.session_id = $session_id)
  AND ($session_id IS NULL OR m.session_id IS NOT NULL OR m.claim_key IS NULL
       OR NOT EXISTS { MATCH (o:Memory {agent: $agent, status: 'active', session_id: $session_id, claim_key: m.claim_key}) })
WITH m LIMIT $scan_cap
WITH collect(m) AS pool
UNWIND pool AS m
WITH size(pool) AS candidates, m.id AS id, vector.similarity.cosine(m.embedding, $embedding) AS similarity
ORDER BY similarity DESC, id
LIMIT $limit
RETURN candidates, id, similarity
