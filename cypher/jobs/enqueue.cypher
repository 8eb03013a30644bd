// One job, unless its key names one already: MERGE on the key, under job_key_unique, so two
// concurrent requests with one idempotency key make one job (the second answers the first's). A new
// job waits for the jobs it depends on (WAITS_FOR edges, the caller checked they are this tenant's).
// params: agent, key, id, kind, params, priority, max_attempts, run_at, now, actor, idempotency_key, depends_on, parent_id
// returns: one
MERGE (j:Job {key: $key})
  ON CREATE SET j.id = $id, j.agent = $agent, j.kind = $kind, j.params = $params, j.priority = $priority,
                j.status = 'queued', j.attempts = 0, j.max_attempts = $max_attempts, j.run_at = datetime($run_at),
                j.created_at = datetime($now), j.updated_at = datetime($now), j.actor = $actor,
                j.idempotency_key = $idempotency_key, j.parent_id = $parent_id, j.cancel_requested = false,
                j.done = 0
WITH j, j.id = $id AND j.agent = $agent AS created
CALL (j, created) {
  UNWIND CASE WHEN created THEN $depends_on ELSE [] END AS dependency
  MATCH (d:Job {agent: $agent, id: dependency})
  MERGE (j)-[:WAITS_FOR]->(d)
  RETURN count(*) AS linked
}
WITH j, created
WHERE j.agent = $agent
// include: jobs/view
       , created
