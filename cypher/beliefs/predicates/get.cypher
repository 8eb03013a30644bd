// The schema registered for one predicate of one tenant, if any.
// params: agent, predicate
// returns: optional
MATCH (p:PredicateSchema {agent: $agent, predicate: $predicate})
RETURN p {.predicate, .cardinality, .conflict_policy, .normalize, .dedup_policy, .updated_at} AS schema
