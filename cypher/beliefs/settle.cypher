// Writes the net change a write's decisions made to its slots' existing beliefs (graph/beliefs/
// engine.py), in one statement, after the write's new memories exist:
// - updates: each changed belief's status, version and, when closed, its validity window (the
//   claim's and the memory's copy, since search filters on it). Record time for known_at: the
//   first closure keeps the window's asserted end and when it was closed; leaving the present sets
//   superseded_at and superseded_reason once;
// - corroborations: new sources linked, corroboration recounted, trust as the engine computed it;
// - successors: the valid-time SUPERSEDES edge into a state is replaced by its new successor's;
// - edges: SUPERSEDES edges of beliefs replaced outright, with why and both trusts;
// - conflicts: one Conflict node per clash, linked to both memories, plus a CONTRADICTS edge between
//   them (one per pair and direction: a later conflict of the same pair reopens it). A conflict
//   decided at once leaves the edge with resolved_at and resolution; a pending one leaves them null
//   until a resolution (beliefs/conflicts/resolve) sets them.
// The lists arrive inside one map, `change`: Neo4j keys its plan cache on each list parameter's size
// (docs/backends.md 2.23), and five lists of their own made a new plan whenever one changed bucket.
// params: agent, now, change
// returns: scalar
CALL () {
  UNWIND $change.updates AS row
  MATCH (m:Memory {agent: $agent, id: row.id})
  OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim {agent: $agent})
  WITH m, c, row, row.closed AND m.closed_at IS NULL AND row.valid_until IS NOT NULL
                  AND (m.valid_until IS NULL OR m.valid_until > datetime(row.valid_until)) AS first_closure,
       m.valid_until AS asserted
  SET m.asserted_valid_until = CASE WHEN first_closure THEN asserted ELSE m.asserted_valid_until END,
      m.closed_at = CASE WHEN first_closure THEN datetime($now) ELSE m.closed_at END
  SET m.status = row.status, m.version = m.version + row.bumps, m.updated_at = datetime($now),
      m.valid_until = CASE WHEN row.closed THEN datetime(row.valid_until) ELSE m.valid_until END,
      m.superseded_at = CASE WHEN row.status = 'superseded' THEN coalesce(m.superseded_at, datetime($now)) END,
      m.superseded_reason = CASE WHEN row.status = 'superseded' THEN coalesce(m.superseded_reason, row.reason) END
  FOREACH (claim IN CASE WHEN row.closed AND c IS NOT NULL THEN [c] ELSE [] END |
    SET claim.valid_until = datetime(row.valid_until))
  RETURN count(*) AS updated
}
CALL () {
  UNWIND $change.corroborations AS row
  MATCH (m:Memory {agent: $agent, id: row.id})
  UNWIND row.sources AS source
  MERGE (s:Source {key: source.key})
  ON CREATE SET s.agent = $agent, s.type = source.type, s.ref = source.ref
  MERGE (m)-[f:FROM]->(s)
  ON CREATE SET f.at = datetime($now)
  WITH DISTINCT m, row
  SET m.corroboration = COUNT { (m)-[:FROM]->(:Source) }, m.trust = row.trust, m.confidence = row.trust,
      m.updated_at = datetime($now)
  RETURN count(*) AS corroborated
}
CALL () {
  // From each state by its id: a match over all SUPERSEDES edges of the tenant grew with it.
  UNWIND $change.successors AS row
  MATCH (m:Memory {agent: $agent, id: row.old_id})<-[e:SUPERSEDES {reason: 'newer_valid_time'}]-(:Memory {agent: $agent})
  DELETE e
  RETURN count(*) AS unlinked
}
CALL () {
  UNWIND $change.successors + $change.edges AS row
  MATCH (new:Memory {agent: $agent, id: row.new_id})
  MATCH (old:Memory {agent: $agent, id: row.old_id})
  CREATE (new)-[:SUPERSEDES {at: datetime($now), created_at: datetime($now), created_by: 'engine', reason: row.reason,
                             new_trust: row.new_trust, old_trust: row.old_trust}]->(old)
  RETURN count(*) AS linked
}
CALL () {
  UNWIND $change.conflicts AS row
  MATCH (new:Memory {agent: $agent, id: row.new_id})
  MATCH (old:Memory {agent: $agent, id: row.existing_id})
  CREATE (k:Conflict {id: row.id, agent: $agent, status: row.status, reason: row.reason, rule: row.rule,
                      new_trust: row.new_trust, existing_trust: row.existing_trust,
                      created_at: datetime($now), resolution: row.resolution})
  SET k.resolved_at = CASE WHEN row.status = 'resolved' THEN datetime($now) END
  CREATE (k)-[:INVOLVES {role: 'new'}]->(new), (k)-[:INVOLVES {role: 'existing'}]->(old)
  MERGE (new)-[e:CONTRADICTS]->(old)
  ON CREATE SET e.created_at = datetime($now), e.created_by = 'engine'
  SET e.conflict_id = row.id, e.reason = row.reason,
      e.resolved_at = CASE WHEN row.status = 'resolved' THEN datetime($now) END,
      e.resolution = CASE WHEN row.status = 'resolved' THEN row.resolution END,
      e.resolved_by = CASE WHEN row.status = 'resolved' THEN 'engine' END
  RETURN count(*) AS recorded
}
RETURN updated + corroborated + unlinked + linked + recorded AS changed
