// Keeps the first answer on the record this request claimed. Nothing when the claiming
// transaction rolled back (no record, or another request's).
// params: agent, id, claim, status, body, content_type, location
// returns: write
MATCH (r:IdempotencyRecord {id: $id, agent: $agent})
WHERE r.claim = $claim
SET r.status = $status, r.body = $body, r.content_type = $content_type, r.location = $location
