// Cancels a job: a queued one at once; a running one is asked to stop, and stops at its next
// checkpoint (the worker then marks it cancelled). A finished job is left as it is. The job is
// write-locked before its status is read, so a claim and a cancel never both win.
// params: agent, id, now
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
SET j.locking = true
REMOVE j.locking
WITH j, j.status AS previous
FOREACH (_ IN CASE WHEN previous = 'queued' THEN [1] ELSE [] END |
  SET j.status = 'cancelled', j.finished_at = datetime($now), j.updated_at = datetime($now),
      j.last_error = coalesce(j.last_error, 'cancelled before it ran'))
FOREACH (_ IN CASE WHEN previous = 'running' THEN [1] ELSE [] END |
  SET j.cancel_requested = true, j.updated_at = datetime($now))
WITH j, previous
// include: jobs/view
       , previous
