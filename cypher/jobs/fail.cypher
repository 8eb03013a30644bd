// A job whose attempt failed: queued again at $retry_at while it has attempts left, dead (with its
// last error, until an operator retries it) when it has none, cancelled when it was asked to stop.
// params: agent, id, worker, error, retry_at, now
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
WHERE j.status = 'running' AND j.lease_owner = $worker
SET j.status = CASE WHEN j.cancel_requested THEN 'cancelled'
                    WHEN j.attempts >= j.max_attempts THEN 'dead' ELSE 'queued' END,
    j.last_error = $error, j.run_at = datetime($retry_at), j.updated_at = datetime($now),
    j.lease_owner = null, j.lease_until = null
SET j.finished_at = CASE WHEN j.status = 'queued' THEN null ELSE datetime($now) END
RETURN j.status AS status
