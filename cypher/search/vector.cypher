// ANN search: the index answers the global top $k; the tenant and status filters apply after,
// so the caller sizes $k from the tenant's share of the index. score = (1 + cosine) / 2.
// params: k, embedding, agent, statuses, memory_types, limit
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node, score
WITH node AS m, score
WHERE m.agent = $agent AND m.status IN $statuses
  AND ($memory_types IS NULL OR m.memory_type IN $memory_types)
RETURN m {.*, embedding: null} AS memory, score
ORDER BY score DESC
LIMIT $limit
