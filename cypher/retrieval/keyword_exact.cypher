// Keyword candidates of a small tenant, matched inside the database instead of through the global
// full-text index: in a crowded index a small tenant's matches sit so deep that widening the
// index request cost more than scanning the tenant (docs/benchmarks.md), the same reason
// search/exact ranks small tenants' vectors. At most $scan_cap memories of the shown statuses are
// read; `candidates` equal to $scan_cap means the tenant is larger and the index should answer.
// $patterns are whole-word regular expressions, one per query term (lower case). Each hit says
// which terms it holds and how many words it has; the caller scores them with BM25 over the tenant.
// params: scan_cap, patterns, agent, statuses, session_id, as_of, memory_types, tags, created_after, created_before, event_after, event_before, explain
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses
WITH m LIMIT $scan_cap
WITH collect(m) AS pool, avg(size(split(m.text, ' '))) AS average_words
UNWIND pool AS m
WITH size(pool) AS candidates, average_words, m,
     [i IN range(0, size($patterns) - 1) WHERE toLower(m.text) =~ $patterns[i]] AS matched
WITH candidates, average_words, m, matched, CASE
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
WITH candidates, average_words,
     collect(CASE WHEN size(matched) > 0 AND (reason IS NULL OR $explain)
                  THEN {id: m.id, matched: matched, words: size(split(m.text, ' ')), reason: reason,
                        confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                        updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                        text: CASE WHEN reason IS NULL THEN m.text END} END) AS hits
RETURN candidates, average_words, hits
