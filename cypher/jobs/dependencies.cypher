// The status of each of the named jobs this tenant holds (a job enqueued with dependencies names
// them; an id of another tenant's job, or of none, is simply absent from the answer).
// params: agent, ids
// returns: many
MATCH (d:Job {agent: $agent})
WHERE d.id IN $ids
RETURN d.id AS id, d.status AS status
