// The first statement of every transaction a running job writes in: write-locks the job and answers
// whether this worker still holds its lease (no row: it lost it, and nothing of the transaction may
// land) and whether the job was asked to stop.
// params: agent, id, worker
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
SET j.locking = true
REMOVE j.locking
WITH j
WHERE j.status = 'running' AND j.lease_owner = $worker
RETURN j.cancel_requested AS cancel_requested
