// Every schema a tenant registered, by predicate.
// params: agent
// returns: many
MATCH (p:PredicateSchema {agent: $agent})
RETURN p {.predicate, .cardinality, .conflict_policy, .normalize, .dedup_policy, .updated_at} AS schema
ORDER BY p.predicate
