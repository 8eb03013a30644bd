// Import: predicate schemas, created as exported or left as the tenant has them (never overwritten).
// $token marks the nodes this statement created, so `created` is exact even when a concurrent
// import of the same file wins the MERGE; it is removed before the statement ends.
// params: agent, rows, token
// returns: many
UNWIND $rows AS row
MERGE (p:PredicateSchema {key: row.key})
ON CREATE SET p = row.props, p.key = row.key, p.agent = $agent, p.import_token = $token,
              p.created_at = datetime(row.created_at), p.updated_at = datetime(row.updated_at)
WITH p, row, coalesce(p.import_token = $token, false) AS created
FOREACH (_ IN CASE WHEN created THEN [1] ELSE [] END | REMOVE p.import_token)
RETURN row.key AS key, created
