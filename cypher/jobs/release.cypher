// A worker that shuts down hands its running job back: queued at once for another worker, and the
// attempt it had begun is not counted (a shutdown is not the job's failure).
// params: agent, id, worker, now
// returns: write
MATCH (j:Job {agent: $agent, id: $id})
WHERE j.status = 'running' AND j.lease_owner = $worker
SET j.status = CASE WHEN j.cancel_requested THEN 'cancelled' ELSE 'queued' END,
    j.attempts = CASE WHEN j.attempts > 0 THEN j.attempts - 1 ELSE 0 END,
    j.run_at = datetime($now), j.updated_at = datetime($now), j.lease_owner = null, j.lease_until = null
