// Marks conflicts resolved, once: a conflict that is no longer pending is left as it is. The
// CONTRADICTS edge the conflict opened stays, closed with the same resolution: contradictions
// remain visible to analysts, never silently removed (a newer conflict of the pair keeps it open).
// params: agent, ids, resolution, actor, now
// returns: many
UNWIND $ids AS id
MATCH (c:Conflict {agent: $agent, id: id})
WHERE c.status = 'pending'
SET c.status = 'resolved', c.resolution = $resolution, c.resolved_by = $actor, c.resolved_at = datetime($now)
WITH c
OPTIONAL MATCH (c)-[:INVOLVES {role: 'new'}]->(:Memory {agent: $agent})-[e:CONTRADICTS]->(:Memory {agent: $agent})
WHERE e.conflict_id = c.id
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END |
  SET e.resolved_at = datetime($now), e.resolution = $resolution, e.resolved_by = $actor)
RETURN DISTINCT c.id AS id
