// A running job that saw at a checkpoint that it was asked to stop: cancelled, with what it did up
// to there kept (each checkpoint committed with its effects).
// params: agent, id, worker, now
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
WHERE j.status = 'running' AND j.lease_owner = $worker
SET j.status = 'cancelled', j.finished_at = datetime($now), j.updated_at = datetime($now),
    j.lease_owner = null, j.lease_until = null, j.last_error = 'cancelled while it ran'
RETURN j.id AS id
