// Expired idempotency records are swept per tenant, oldest expiry first.
// returns: write
CREATE INDEX idempotency_record_agent_expires IF NOT EXISTS FOR (r:IdempotencyRecord) ON (r.agent, r.expires_at)
