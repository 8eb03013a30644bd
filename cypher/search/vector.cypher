// ANN search: the index answers the global top $k; the tenant, status and session filters apply
// after, so the caller widens $k until the tenant has enough. score = (1 + cosine) / 2.
// Session claims show only in their own session, where they hide global claims of the same
// subject and predicate.
// params: k, embedding, agent, statuses, memory_types, session_id, limit
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node, score
WITH node AS m, score
WHERE m.agent = $agent AND m.status IN $statuses
  AND ($memory_types IS NULL OR m.memory_type IN $memory_types)
  AND (m.session_id IS NULL OR m.session_id = $session_id)
  AND ($session_id IS NULL OR m.session_id IS NOT NULL OR m.claim_key IS NULL
       OR NOT EXISTS { MATCH (o:Memory {agent: $agent, status: 'active', session_id: $session_id, claim_key: m.claim_key}) })
RETURN m {.*, embedding: null} AS memory, score
ORDER BY score DESC
LIMIT $limit
