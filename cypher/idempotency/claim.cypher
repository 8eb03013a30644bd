// Runs first in the write transaction of a request that carries an Idempotency-Key, so the record
// commits with the write or not at all. Under idempotency_record_id_unique a concurrent twin's
// MERGE waits for this transaction (Neo4j) or fails at commit and is retried (ArcadeDB), then
// matches this record: `ours` is false for it, and its transaction is abandoned.
// params: agent, id, claim, fingerprint, now, expires_at
// returns: scalar
MERGE (r:IdempotencyRecord {id: $id})
  ON CREATE SET r.agent = $agent, r.claim = $claim, r.fingerprint = $fingerprint, r.created_at = $now,
                r.expires_at = $expires_at
RETURN r.claim = $claim AND r.agent = $agent AS ours
