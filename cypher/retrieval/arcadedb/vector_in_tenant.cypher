// ArcadeDB only (Neo4j 5.26 has no vector search restricted to a set of nodes): ANN candidates
// for one tenant from the vector index searched over this tenant's memories alone, not the global
// index's top $k cut to the tenant afterwards. ArcadeDB's SQL function vector.neighbors takes an
// allow-list of records ({filter: [...]}); its Cypher calls SQL functions by name. Below a fifth of
// the index's vectors ArcadeDB scores the list exactly (vectorIndex.prefilterMaxSelectivity), so
// the page is the tenant's exact top $k; above that it walks the HNSW graph with the list as a
// filter. Collecting the list costs per member, so a tenant with $scan_cap or more shown memories
// answers `members` = $scan_cap and no hits, and the caller takes the global page
// (retrieval/vector) instead (docs/backends.md §2.24). An empty list would mean no filter at all:
// it asks for nothing, and every hit's tenant is checked again anyway. score = (1 + cosine) / 2, as
// the index's own (vector.neighbors answers the distance 1 - cosine). `scanned` < $k: the tenant had
// no more. Rows as retrieval/vector's: `reason`, the hidden ones with $explain (the list then holds
// every status), what the rerank weighs.
// params: k, scan_cap, embedding, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns, explain
// returns: one
MATCH (t:Memory {agent: $agent})
WHERE t.status IN $statuses OR $explain
WITH t LIMIT $scan_cap
WITH collect(t) AS own
WITH size(own) AS members, CASE WHEN own = [] OR size(own) >= $scan_cap THEN []
       ELSE vector.neighbors('Memory[embedding]', $embedding, $k, {filter: own}) END AS page
UNWIND CASE WHEN page = [] THEN [null] ELSE page END AS hit
WITH members, size(page) AS scanned, CASE WHEN hit.record.agent = $agent THEN hit.record END AS m,
     1.0 - hit.distance / 2.0 AS score
WITH members, scanned, m, score, CASE
  // include: retrieval/visibility
END AS reason
WITH members, scanned,
     collect(CASE WHEN m IS NOT NULL AND (reason IS NULL OR $explain)
                  THEN {id: m.id, score: score, reason: reason,
                        confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                        updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                        event_ms: CASE WHEN m.event_at IS NOT NULL THEN m.event_at.epochMillis END, threaded: m.thread IS NOT NULL} END) AS hits
RETURN members, scanned, hits
