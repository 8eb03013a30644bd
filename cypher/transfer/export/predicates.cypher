// Export: a page of the predicate schemas a tenant registered, by predicate name after $after
// (null: from the first).
// params: agent, after, limit
// returns: many
MATCH (p:PredicateSchema {agent: $agent})
WHERE $after IS NULL OR p.predicate > $after
WITH p
ORDER BY p.predicate
LIMIT $limit
RETURN p {.*} AS predicate
