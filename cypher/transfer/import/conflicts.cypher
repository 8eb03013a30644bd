// Import: conflicts keyed by their exported id (constraint conflict_id_unique), created as exported
// or left as they are; an id held by another tenant is never changed (`own` false: the caller rolls
// the batch back). $token marks the nodes this statement created and is removed before it ends.
// params: agent, rows, token
// returns: many
UNWIND $rows AS row
MERGE (c:Conflict {id: row.id})
ON CREATE SET c = row.props, c.agent = $agent, c.import_token = $token,
              c.created_at = datetime(row.created_at), c.resolved_at = datetime(row.resolved_at)
WITH c, row, coalesce(c.import_token = $token, false) AS created
FOREACH (_ IN CASE WHEN created THEN [1] ELSE [] END | REMOVE c.import_token)
RETURN row.id AS id, created, c.agent = $agent AS own
