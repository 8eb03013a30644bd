// The new belief replaces older ones: they stay in the graph, superseded, behind a SUPERSEDES edge
// that records when (`at`, the same instant as `created_at`), by whom (the engine), why, and both
// trusts at that moment. The memory keeps when and why it left
// the present (superseded_at, superseded_reason): record time, for known_at.
// params: agent, new_id, superseded, now
// returns: many
MATCH (new:Memory {agent: $agent, id: $new_id})
UNWIND $superseded AS row
MATCH (old:Memory {agent: $agent, id: row.id})
SET old.status = 'superseded', old.updated_at = datetime($now), old.version = old.version + 1,
    old.superseded_at = datetime($now), old.superseded_reason = row.reason
CREATE (new)-[:SUPERSEDES {at: datetime($now), created_at: datetime($now), created_by: 'engine', reason: row.reason,
                           new_trust: row.new_trust, old_trust: row.old_trust}]->(old)
RETURN old.id AS id
