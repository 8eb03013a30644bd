// Hard delete: a kept answer of an Idempotency-Key (graph/idempotency) that names a deleted memory may
// quote its text. Its body goes; the record stays, marked redacted, so a retry of that request is
// refused (409) rather than run again. A record's `agent` is its request's agents, comma-joined.
// params: agent, ids
// returns: scalar
MATCH (r:IdempotencyRecord)
WHERE $agent IN split(r.agent, ',') AND any(id IN $ids WHERE r.body CONTAINS id)
SET r.body = null, r.redacted = true
RETURN count(r) AS records
