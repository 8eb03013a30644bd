// One IdempotencyRecord per (caller, agents, Idempotency-Key): the constraint decides which of two
// concurrent requests with the same key writes, the other waits for its answer.
// returns: write
CREATE CONSTRAINT idempotency_record_id_unique IF NOT EXISTS FOR (r:IdempotencyRecord) REQUIRE r.id IS UNIQUE
