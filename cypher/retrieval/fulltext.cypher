// Full-text (BM25) candidates for one tenant; $lucene is built from escaped query terms and requires
// the tenant's token (graph/retrieval/keywords.py), so the index's best $k are this tenant's
// matches, scored as in the whole index. The filters apply after (the agent too: the token only
// narrows the page), and one row always comes back: `scanned` < $k means there are no more
// matches. Scores are the backend's BM25, comparable only within one query. Shown hits carry what
// the rerank weighs and their text (for the matched terms). No embedding: this query runs while
// the query text is being embedded.
// params: k, lucene, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, explain
// returns: one
CALL db.index.fulltext.queryNodes('memory_text_by_tenant', $lucene, {limit: $k}) YIELD node AS m, score
// include: retrieval/tenant_hits
WITH scanned, m, score, CASE
  // include: retrieval/visibility
END AS reason
WITH scanned,
     collect(CASE WHEN m IS NOT NULL AND (reason IS NULL OR $explain)
                  THEN {id: m.id, score: score, reason: reason,
                        confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                        updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                        event_ms: CASE WHEN m.event_at IS NOT NULL THEN m.event_at.epochMillis END, threaded: m.thread IS NOT NULL,
                        text: CASE WHEN reason IS NULL THEN m.text END} END) AS hits
RETURN scanned, hits
