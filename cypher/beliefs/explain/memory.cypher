// Everything behind one belief: its claim, its sources, its conflicts and its supersessions.
// params: agent, id
// returns: optional
MATCH (m:Memory {agent: $agent, id: $id})
OPTIONAL MATCH (m)-[:ASSERTS]->(claim:Claim)
CALL (m) {
  OPTIONAL MATCH (m)-[f:FROM]->(s:Source)
  RETURN collect(CASE WHEN s IS NULL THEN null ELSE {type: s.type, ref: s.ref, at: f.at} END) AS sources
}
CALL (m) {
  OPTIONAL MATCH (c:Conflict)-[r:INVOLVES]->(m)
  OPTIONAL MATCH (c)-[o:INVOLVES]->(other:Memory) WHERE other <> m
  RETURN collect(CASE WHEN c IS NULL THEN null ELSE c {.id, .status, .reason, .rule, .resolution, .new_trust,
         .existing_trust, .created_at, .resolved_at, role: r.role, other_id: other.id} END) AS conflicts
}
CALL (m) {
  OPTIONAL MATCH (newer:Memory)-[s:SUPERSEDES]->(m)
  RETURN collect(CASE WHEN newer IS NULL THEN null ELSE {id: newer.id, status: newer.status, at: s.at, reason: s.reason,
         new_trust: s.new_trust, old_trust: s.old_trust} END) AS superseded_by
}
CALL (m) {
  OPTIONAL MATCH (m)-[s:SUPERSEDES]->(older:Memory)
  RETURN collect(CASE WHEN older IS NULL THEN null ELSE {id: older.id, at: s.at, reason: s.reason} END) AS supersedes
}
RETURN m {.*, embedding: null} AS memory, claim {.*} AS claim, sources, conflicts, superseded_by, supersedes
