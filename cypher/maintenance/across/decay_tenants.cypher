// Across tenants, for the scheduled decay's fan-out: the tenants holding active memories below the
// exemption that nothing touched since $cutoff (agent ids only; each tenant's own job decides).
// params: cutoff, exempt
// returns: many
MATCH (m:Memory)
WHERE m.status = 'active' AND m.importance < $exempt AND m.updated_at < datetime($cutoff)
  AND coalesce(m.last_accessed_at, m.created_at) < datetime($cutoff)
RETURN DISTINCT m.agent AS agent
ORDER BY agent
