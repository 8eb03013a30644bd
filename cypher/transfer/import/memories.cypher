// Import: memories keyed by their exported id (unique across the graph, constraint memory_id_unique).
// A memory the tenant already holds is left as it is (re-sending a batch changes nothing). An id
// held by another tenant is matched but never changed: `own` is false and the caller rolls the
// batch back. $token marks the nodes this statement created and is removed before it ends.
// params: agent, rows, token
// returns: many
UNWIND $rows AS row
MERGE (m:Memory {id: row.id})
ON CREATE SET m = row.props, m.agent = $agent, m.import_token = $token,
              m.created_at = datetime(row.times.created_at),
              m.updated_at = datetime(row.times.updated_at),
              m.archived_at = datetime(row.times.archived_at),
              m.event_at = datetime(row.times.event_at),
              m.quarantined_at = datetime(row.times.quarantined_at),
              m.quarantine_resolved_at = datetime(row.times.quarantine_resolved_at),
              m.valid_from = datetime(row.times.valid_from),
              m.valid_until = datetime(row.times.valid_until),
              m.last_accessed_at = datetime(row.times.last_accessed_at),
              m.superseded_at = datetime(row.times.superseded_at),
              m.closed_at = datetime(row.times.closed_at),
              m.asserted_valid_until = datetime(row.times.asserted_valid_until),
              m.effective_from = datetime(row.times.effective_from),
              m.expires_at = datetime(row.times.expires_at)
WITH m, row, coalesce(m.import_token = $token, false) AS created
FOREACH (_ IN CASE WHEN created THEN [1] ELSE [] END | REMOVE m.import_token)
RETURN row.id AS id, created, m.agent = $agent AS own
