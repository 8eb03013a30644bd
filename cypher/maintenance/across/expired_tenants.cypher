// Across tenants, for the scheduled expiry's fan-out: the tenants that hold memories expired by $now
// and not yet archived (agent ids only; each tenant's own job then reads and writes its memories).
// params: now
// returns: many
MATCH (m:Memory)
WHERE m.expires_at <= datetime($now) AND m.status IN ['active', 'disputed']
RETURN DISTINCT m.agent AS agent
ORDER BY agent
