// Renews this worker's lease on a running job; no row when it no longer holds it. Answers whether
// the job was asked to stop.
// params: agent, id, worker, lease_until
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
WHERE j.status = 'running' AND j.lease_owner = $worker
SET j.lease_until = datetime($lease_until)
RETURN j.cancel_requested AS cancel_requested
