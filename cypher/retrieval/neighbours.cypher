// The conversation turns around a search's best hits: from each of the memories $ids, the turns up
// to two steps away along NEXT, either way (the bound is the pattern's: graph/retrieval/neighbours.py
// STEPS), each once by its nearest path, with what ranking it needs: its cosine to the query (the
// backend's vector.similarity.cosine, calibrated by the caller) and what the rerank weighs. Every
// turn on the way is screened by search's visibility filter, so a hidden turn is neither returned
// nor walked through; other tenants' memories are never reached.
// params: ids, embedding, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns
// returns: many
UNWIND $ids AS id
MATCH (p:Memory {agent: $agent, id: id})
MATCH path = (p)-[:NEXT*1..2]-(n:Memory)
WHERE n <> p AND all(m IN nodes(path)[1..] WHERE m.agent = $agent AND CASE
  // include: retrieval/visibility
END IS NULL)
WITH p, n, min(length(path)) AS steps
RETURN p.id AS from_id, n.id AS id, steps,
       vector.similarity.cosine(n.embedding, $embedding) AS similarity,
       coalesce(n.confidence, n.trust, 0.5) AS confidence, coalesce(n.importance, 0.5) AS importance,
       coalesce(n.updated_at, n.created_at).epochMillis AS updated_ms,
       CASE WHEN n.event_at IS NOT NULL THEN n.event_at.epochMillis END AS event_ms
