// Import: audit records keyed by their exported id (constraint operation_id_unique), created as
// exported or left as they are; an id held by another tenant is never changed (`own` false: the
// caller rolls the batch back). $token marks the nodes this statement created and is removed
// before it ends.
// params: agent, rows, token
// returns: many
UNWIND $rows AS row
MERGE (o:Operation {id: row.id})
ON CREATE SET o = row.props, o.agent = $agent, o.import_token = $token, o.at = datetime(row.at)
WITH o, row, coalesce(o.import_token = $token, false) AS created
FOREACH (_ IN CASE WHEN created THEN [1] ELSE [] END | REMOVE o.import_token)
RETURN row.id AS id, created, o.agent = $agent AS own
