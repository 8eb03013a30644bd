// Recall with relationships: from the memories $ids, every memory within 1 hop(s) along typed
// edges, in ONE bounded variable-length pattern (one file per depth: Cypher takes no parameter
// for the bounds, and a pattern bounded by the request keeps deeper hops unexplored). The caller
// keeps the nearest path to each memory. Filters as in retrieval/hydrate.
// params: ids, kinds, direction, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns
// returns: many
UNWIND $ids AS id
MATCH (p:Memory {agent: $agent, id: id})
// Start at the bound p, and test the tenant of n in WHERE: a property map on n makes ArcadeDB scan the tenant.
MATCH path = (p)-[:CAUSES|SUPERSEDES|CONTRADICTS|SUPPORTS|PROMOTED_FROM|DIGEST_OF|OUTCOME_OF|PROGRESS_ON|DUPLICATE_OF|NEXT*1..1]-(n:Memory)
// include: links/expand/paths
// include: retrieval/visibility
// include: links/expand/rows
