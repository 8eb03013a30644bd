// A running job's progress, the state it resumes from, and a renewed lease, written in the same
// transaction as the effects they count (after jobs/fence, which checked the lease).
// params: agent, id, worker, done, total, state, lease_until, now
// returns: write
MATCH (j:Job {agent: $agent, id: $id})
WHERE j.status = 'running' AND j.lease_owner = $worker
SET j.done = $done, j.total = $total, j.state = $state, j.lease_until = datetime($lease_until),
    j.updated_at = datetime($now)
