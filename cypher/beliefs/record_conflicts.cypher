// One Conflict node per clash, linked to both memories, plus a CONTRADICTS edge between them.
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
MERGE (new)-[:CONTRADICTS]->(old)
RETURN c.id AS id, c.status AS status
