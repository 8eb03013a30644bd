// Registers or replaces predicate schemas of one tenant; one row per predicate.
// params: agent, rows, now
// returns: many
UNWIND $rows AS row
MERGE (p:PredicateSchema {key: row.key})
ON CREATE SET p.agent = $agent, p.predicate = row.predicate, p.created_at = datetime($now)
SET p.cardinality = row.cardinality, p.conflict_policy = row.conflict_policy,
    p.normalize = row.normalize, p.dedup_policy = row.dedup_policy, p.updated_at = datetime($now)
RETURN p {.predicate, .cardinality, .conflict_policy, .normalize, .dedup_policy, .updated_at} AS schema
