// ANN candidates for one tenant. The index answers the global top $k; everything after YIELD
// filters, so the caller widens $k until the tenant has enough. One row always comes back:
// `scanned` < $k means the index had nothing more to give. score = (1 + cosine) / 2.
// `reason` says why a memory is not shown (a hidden status, scope_mismatch, validity_mismatch,
// filtered); with $explain the hidden ones come back too, for the explain counts. Other tenants'
// nodes are never returned, explain or not. Each hit carries what the rerank weighs, so only the
// memories a search returns need hydrating.
// params: k, embedding, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns, explain
// returns: one
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node AS m, score
// include: retrieval/tenant_hits
WITH scanned, m, score, CASE
  // include: retrieval/visibility
END AS reason
WITH scanned,
     collect(CASE WHEN m IS NOT NULL AND (reason IS NULL OR $explain)
                  THEN {id: m.id, score: score, reason: reason,
                        confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                        updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                        event_ms: CASE WHEN m.event_at IS NOT NULL THEN m.event_at.epochMillis END, threaded: m.thread IS NOT NULL} END) AS hits
RETURN scanned, hits
