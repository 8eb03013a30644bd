// Runs a dead or cancelled job again: queued now, with a fresh set of attempts; its last error stays
// until the next attempt ends. Any other job is left as it is (the caller says why).
// params: agent, id, now
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
SET j.locking = true
REMOVE j.locking
WITH j, j.status AS previous
FOREACH (_ IN CASE WHEN previous IN ['dead', 'cancelled'] THEN [1] ELSE [] END |
  SET j.status = 'queued', j.attempts = 0, j.run_at = datetime($now), j.updated_at = datetime($now),
      j.finished_at = null, j.cancel_requested = false, j.lease_owner = null, j.lease_until = null)
WITH j, previous
// include: jobs/view
       , previous
