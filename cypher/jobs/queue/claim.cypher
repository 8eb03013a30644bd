// The queue's claim, across tenants (a worker serves all of them; what it runs then filters by the
// job's tenant in every statement): the most urgent queued job of a kind this worker runs, due, and
// not waiting for a job that has not succeeded; running under this worker's lease from now on.
// Each candidate is write-locked and its status read again under the lock: a concurrent claimer
// that took it first has committed by then (Neo4j), or this commit fails and the gateway retries it
// (ArcadeDB's optimistic transactions), so two workers never both take one job.
// params: kinds, now, worker, lease_until, candidates
// returns: optional
MATCH (j:Job)
WHERE j.status = 'queued' AND j.run_at <= datetime($now) AND j.kind IN $kinds
  AND NOT EXISTS { MATCH (j)-[:WAITS_FOR]->(d:Job) WHERE d.status <> 'succeeded' }
WITH j
ORDER BY j.priority, j.run_at, j.id
LIMIT $candidates
SET j.locking = true
REMOVE j.locking
WITH j
WHERE j.status = 'queued'
WITH j
ORDER BY j.priority, j.run_at, j.id
LIMIT 1
SET j.status = 'running', j.lease_owner = $worker, j.lease_until = datetime($lease_until),
    j.attempts = j.attempts + 1, j.started_at = coalesce(j.started_at, datetime($now)),
    j.updated_at = datetime($now), j.cancel_requested = false
RETURN j {.*} AS job,
       [(j)-[:WAITS_FOR]->(d:Job {agent: j.agent}) | d.id] AS depends_on,
       [] AS waiting_for
