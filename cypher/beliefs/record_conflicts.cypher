// One Conflict node per clash, linked to both memories, plus a CONTRADICTS edge between them, so
// `MATCH (a:Memory)-[:CONTRADICTS]-(b:Memory)` finds every contradiction. One edge per pair and
// direction: a later conflict of the same pair reopens it (conflict_id names the latest). A
// conflict decided at once (the new belief won) leaves the edge with resolved_at and resolution;
// a pending one leaves them null until a resolution (beliefs/conflicts/resolve) sets them.
// params: agent, new_id, conflicts, now
// returns: many
MATCH (new:Memory {agent: $agent, id: $new_id})
UNWIND $conflicts AS row
MATCH (old:Memory {agent: $agent, id: row.existing_id})
CREATE (c:Conflict {id: row.id, agent: $agent, status: row.status, reason: row.reason, rule: row.rule,
                    new_trust: row.new_trust, existing_trust: row.existing_trust,
                    created_at: datetime($now), resolution: row.resolution})
SET c.resolved_at = CASE WHEN row.status = 'resolved' THEN datetime($now) END
CREATE (c)-[:INVOLVES {role: 'new'}]->(new), (c)-[:INVOLVES {role: 'existing'}]->(old)
MERGE (new)-[e:CONTRADICTS]->(old)
ON CREATE SET e.created_at = datetime($now), e.created_by = 'engine'
SET e.conflict_id = row.id, e.reason = row.reason,
    e.resolved_at = CASE WHEN row.status = 'resolved' THEN datetime($now) END,
    e.resolution = CASE WHEN row.status = 'resolved' THEN row.resolution END,
    e.resolved_by = CASE WHEN row.status = 'resolved' THEN 'engine' END
RETURN c.id AS id, c.status AS status
