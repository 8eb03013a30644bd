// The record of one (caller, agents, Idempotency-Key), expired or not. `agent` is the request's
// agent (several, comma-joined, for a batch); times are epoch milliseconds. `status` is null until
// the first request's answer is kept; `redacted` when a hard delete removed the answer's body.
// params: agent, id
// returns: optional
MATCH (r:IdempotencyRecord {id: $id, agent: $agent})
RETURN r.fingerprint AS fingerprint, r.claim AS claim, r.created_at AS created_at, r.expires_at AS expires_at,
       r.status AS status, r.body AS body, r.content_type AS content_type, r.location AS location,
       coalesce(r.redacted, false) AS redacted
