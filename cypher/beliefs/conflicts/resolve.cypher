// Marks conflicts resolved, once: a conflict that is no longer pending is left as it is.
// params: agent, ids, resolution, actor, now
// returns: many
UNWIND $ids AS id
MATCH (c:Conflict {agent: $agent, id: id})
WHERE c.status = 'pending'
SET c.status = 'resolved', c.resolution = $resolution, c.resolved_by = $actor, c.resolved_at = datetime($now)
RETURN c.id AS id
