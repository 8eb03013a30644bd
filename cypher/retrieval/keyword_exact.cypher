// Keyword candidates of a small tenant, matched inside the database instead of through the global
// full-text index: in a crowded index a small tenant's matches sit so deep that widening the
// index request cost more than scanning the tenant (docs/benchmarks.md), the same reason
// retrieval/exact ranks small tenants' vectors. At most $scan_cap memories of the shown statuses are
// counted; `candidates` equal to $scan_cap means the tenant is larger and the index should answer, so
// then none is matched (hits empty): a tenant's first search in a process tries this scan before it
// knows the tenant's size.
// $needles are the query's stems, each between spaces, looked for in the stems each memory stores
// (graph/language/stems.py), so a stem matches whole and "hiking" finds "hike", as the full-text index
// does for a large tenant; no regular expression (ArcadeDB gives all of a statement's one budget,
// arcadedb.command.regexTimeout, which whole-word patterns over 500 long memories once exhausted).
// Each hit says which stems it holds (indices into $needles: every one, so the caller names the matched
// terms from them) and how many words its text has; the caller scores them with BM25 over the tenant.
// params: scan_cap, needles, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns, explain
// returns: one
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses
WITH m LIMIT $scan_cap
WITH collect(m) AS pool, avg(size(split(m.text, ' '))) AS average_words
// No CALL subquery: on ArcadeDB one made this statement several times slower in a large graph.
// A tenant over the cap unwinds one null, which keeps the row that says how many were counted.
UNWIND CASE WHEN 0 < size(pool) < $scan_cap THEN pool ELSE [null] END AS m
WITH size(pool) AS candidates, average_words, m,
     CASE WHEN m IS NULL THEN [] ELSE
       [i IN range(0, size($needles) - 1) WHERE m.stems CONTAINS $needles[i]] END AS matched
WITH candidates, average_words, m, matched, CASE
  WHEN m IS NULL THEN 'not_scored'
  // include: retrieval/visibility
END AS reason
WITH candidates, average_words,
     collect(CASE WHEN size(matched) > 0 AND (reason IS NULL OR $explain)
                  THEN {id: m.id, matched: matched, words: size(split(m.text, ' ')), reason: reason,
                        confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                        updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                        event_ms: CASE WHEN m.event_at IS NOT NULL THEN m.event_at.epochMillis END,
                        threaded: m.thread IS NOT NULL} END) AS hits
RETURN candidates, average_words, hits
