// ANN candidates for one tenant. The index answers the global top $k; everything after YIELD
// filters, so the caller widens $k until the tenant has enough. One row always comes back:
// `scanned` < $k means the index had nothing more to give. score = (1 + cosine) / 2.
// `reason` says why a memory is not shown (a hidden status, scope_mismatch, validity_mismatch,
// filtered); with $explain the hidden ones come back too, for the explain counts. Other tenants'
// nodes are never returned, explain or not. Each hit carries what the rerank weighs, so only the
// memories a search returns need hydrating.
// params: k, embedding, agent, statuses, session_id, as_of, memory_types, tags, created_after, created_before, event_after, event_before, explain
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node AS m, score
WITH m, score, CASE
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
WITH count(*) AS scanned,
     collect(CASE WHEN m.agent = $agent AND (reason IS NULL OR $explain)
                  THEN {id: m.id, score: score, reason: reason,
                        confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                        updated_ms: coalesce(m.updated_at, m.created_at).epochMillis} END) AS hits
RETURN scanned, hits
