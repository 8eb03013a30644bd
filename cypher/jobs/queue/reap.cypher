// Across tenants: running jobs whose lease ran out (their worker died or hung) are queued again at
// once, or dead when that was their last attempt, or cancelled when they were asked to stop. Locked
// and read again first, as the claim does, so a worker that renews in time keeps its job.
// params: now, limit
// returns: many
MATCH (j:Job)
WHERE j.status = 'running' AND j.lease_until <= datetime($now)
WITH j
ORDER BY j.lease_until
LIMIT $limit
SET j.locking = true
REMOVE j.locking
WITH j
WHERE j.status = 'running' AND j.lease_until <= datetime($now)
SET j.last_error = 'lease expired: worker ' + coalesce(j.lease_owner, '?') + ' stopped renewing it',
    j.status = CASE WHEN j.cancel_requested THEN 'cancelled'
                    WHEN j.attempts >= j.max_attempts THEN 'dead' ELSE 'queued' END,
    j.run_at = datetime($now), j.updated_at = datetime($now), j.lease_owner = null, j.lease_until = null
SET j.finished_at = CASE WHEN j.status = 'queued' THEN null ELSE datetime($now) END
RETURN j.agent AS agent, j.id AS id, j.status AS status
