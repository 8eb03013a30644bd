// Keyword (BM25) candidates of a large tenant, scored over the tenant's own memories: a term's weight
// comes from how many of this tenant's memories hold it, never from other tenants' (the full-text
// index keeps one set of statistics for the whole graph). Each of $queries asks the index for the
// tenant's memories holding one query term's stem in their stored stems (graph/language/stems.py; the
// query requires the tenant's token, graph/retrieval/keywords.py),
// at most $cap of them; how many answered is the term's document frequency. The tenant's size
// ($memories) and average length in words ($average_words) come from retrieval/keyword_stats, read
// apart and kept a few seconds by the caller (graph/retrieval/keyword_stats.py). The score is
// graph/retrieval/bm25.py's formula and constants ($k1, $b): Lucene's BM25 with binary term frequency, a
// memory's length its words as retrieval/keyword_exact counts them, read from the node the index
// answered. Every candidate is scored; the filters then run on the best $top only (in a tenant of
// 10,000 memories the postings name thousands): `candidates` says how many were scored, and the caller
// asks again with a larger $top when fewer than $limit of the best $top are shown and more were scored.
// Shown hits come best first, at most $limit, each with what the rerank weighs and the terms it
// matched (indices into $queries); with $explain the hidden ones among the best $top follow with their
// reason. `capped` names the terms whose postings reached $cap: a hit may hold one of those unlisted,
// so the caller then names its matched terms from its text, which comes with each shown hit (ArcadeDB
// refused `capped` imported into the subquery that would send the text for that case alone).
// params: queries, cap, top, limit, k1, b, memories, average_words, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns, explain
// returns: one
UNWIND range(0, size($queries) - 1) AS i
CALL (i) {
  CALL db.index.fulltext.queryNodes('memory_stems_by_tenant', $queries[i], {limit: $cap}) YIELD node
  WITH node
  WHERE node.agent = $agent
  RETURN collect([node.id, size(split(node.text, ' '))]) AS posting
}
WITH collect({i: i, posting: posting}) AS terms
// Statistics kept a few seconds never say fewer memories than the postings of a term hold now.
WITH terms, reduce(n = $memories, t IN terms | CASE WHEN size(t.posting) > n THEN size(t.posting) ELSE n END) AS n,
     [t IN terms WHERE size(t.posting) >= $cap | t.i] AS capped
UNWIND terms AS t
WITH capped, t.i AS i, t.posting AS posting,
     log(1 + (n - size(t.posting) + 0.5) / (size(t.posting) + 0.5)) AS idf
// Grouped by id and length, not by node: ArcadeDB counts the keys of a grouping against its shared query heap
// (arcadedb.queryMaxHeapRAM), and whole nodes, embeddings and all, exhausted it (docs/backends.md §2.21).
UNWIND posting AS hit
WITH capped, hit[0] AS id, hit[1] AS words, collect(i) AS matched, sum(idf) AS weight
WITH capped, id, matched, weight * ($k1 + 1) / (1 + $k1 * (1 - $b + $b * words / $average_words)) AS score
ORDER BY score DESC, id
// One row even when no memory holds a term (an aggregate without grouping keys): capped is then null.
WITH collect({id: id, matched: matched, score: score}) AS scored, head(collect(capped)) AS capped
CALL (scored) {
  UNWIND scored[0..$top] AS c
  MATCH (m:Memory {agent: $agent, id: c.id})
  WITH m, c.matched AS matched, c.score AS score, CASE
    // include: retrieval/visibility
  END AS reason
  ORDER BY reason IS NULL DESC, score DESC, m.id
  RETURN collect(CASE WHEN reason IS NULL OR $explain
                      THEN {id: m.id, score: score, reason: reason, matched: matched,
                            confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                            updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                            event_ms: CASE WHEN m.event_at IS NOT NULL THEN m.event_at.epochMillis END,
                            threaded: m.thread IS NOT NULL,
                            text: CASE WHEN reason IS NULL THEN m.text END} END) AS rows
}
RETURN [r IN rows WHERE r.reason IS NULL][0..$limit] + [r IN rows WHERE r.reason IS NOT NULL] AS hits,
       size(scored) AS candidates, coalesce(capped, []) AS capped
