// A job this worker ran to its end: succeeded, with its result. No row when the worker no longer
// held the lease (another worker took the job over; its run decides).
// params: agent, id, worker, result, now
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
WHERE j.status = 'running' AND j.lease_owner = $worker
SET j.status = 'succeeded', j.result = $result, j.finished_at = datetime($now), j.updated_at = datetime($now),
    j.lease_owner = null, j.lease_until = null, j.last_error = null
RETURN j.id AS id
