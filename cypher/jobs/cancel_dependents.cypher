// A cancelled job never succeeds, so the queued jobs that wait for it, directly or through others,
// can never run: they are cancelled too, saying why. Answers how many.
// params: agent, ids, now
// returns: scalar
MATCH (j:Job {agent: $agent})-[:WAITS_FOR*1..]->(d:Job {agent: $agent})
WHERE d.id IN $ids AND j.status = 'queued'
WITH DISTINCT j
SET j.status = 'cancelled', j.finished_at = datetime($now), j.updated_at = datetime($now),
    j.last_error = 'a job it depends on was cancelled'
RETURN count(j) AS cancelled
