// Across tenants, for /metrics: how many jobs there are of each status and kind.
// returns: many
MATCH (j:Job)
RETURN j.status AS status, j.kind AS kind, count(*) AS jobs
