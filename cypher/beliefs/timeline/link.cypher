// Valid-time succession: each state is SUPERSEDED by the next later state of its slot, with when
// this was recorded and both trusts at that moment. The statuses are set by timeline/close.
// params: agent, edges, now
// returns: many
UNWIND $edges AS row
MATCH (new:Memory {agent: $agent, id: row.new_id})
MATCH (old:Memory {agent: $agent, id: row.old_id})
CREATE (new)-[:SUPERSEDES {at: datetime($now), created_at: datetime($now), created_by: 'engine',
                           reason: 'newer_valid_time', new_trust: row.new_trust, old_trust: row.old_trust}]->(old)
RETURN old.id AS id
