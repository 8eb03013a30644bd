// One Job per tenant and idempotency key (graph/core/keys.py: job_key): two concurrent requests with
// one key make one job, whichever commits first.
// returns: write
CREATE CONSTRAINT job_key_unique IF NOT EXISTS FOR (j:Job) REQUIRE j.key IS UNIQUE
