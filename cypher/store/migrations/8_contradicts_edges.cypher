// CONTRADICTS edges for conflicts recorded before the edge carried its history: each pair a
// Conflict links gets (or keeps) its edge, with when and by whom it was made and, from the pair's
// latest conflict, whether and how it was resolved. Pairs whose edge has created_at are done.
// returns: write
MATCH (c:Conflict)-[:INVOLVES {role: 'new'}]->(n:Memory)
MATCH (c)-[:INVOLVES {role: 'existing'}]->(o:Memory)
WHERE n.agent = c.agent AND o.agent = c.agent
  AND NOT EXISTS { MATCH (n)-[e:CONTRADICTS]->(o) WHERE e.created_at IS NOT NULL }
WITH n, o, c ORDER BY c.created_at
WITH n, o, collect(c) AS conflicts
WITH n, o, conflicts[0] AS first, conflicts[size(conflicts) - 1] AS latest
MERGE (n)-[e:CONTRADICTS]->(o)
SET e.created_at = first.created_at, e.created_by = 'engine', e.conflict_id = latest.id, e.reason = latest.reason,
    e.resolved_at = latest.resolved_at, e.resolution = latest.resolution, e.resolved_by = latest.resolved_by
