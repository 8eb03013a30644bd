// Links two memories of one tenant with an edge users may assert: (from)-[:SUPPORTS]->(to) says
// `from` supports `to`, (from)-[:CAUSES]->(to) that `from` caused `to`, (from)-[:PROMOTED_FROM]->(to)
// that `from` was promoted from `to` (a session note made global, say), (from)-[:OUTCOME_OF]->(to) that
// `from` is what came of the decision `to`, (from)-[:PROGRESS_ON]->(to) that `from` records progress on
// the goal `to`. Idempotent: an edge that
// exists keeps its creator and time. No row: a memory is missing.
// params: agent, from_id, to_id, type, note, actor, now
// returns: optional
MATCH (a:Memory {agent: $agent, id: $from_id})
MATCH (b:Memory {agent: $agent, id: $to_id})
FOREACH (_ IN CASE WHEN $type = 'SUPPORTS' THEN [1] ELSE [] END |
  MERGE (a)-[r:SUPPORTS]->(b) ON CREATE SET r.created_at = datetime($now), r.created_by = $actor, r.note = $note)
FOREACH (_ IN CASE WHEN $type = 'CAUSES' THEN [1] ELSE [] END |
  MERGE (a)-[r:CAUSES]->(b) ON CREATE SET r.created_at = datetime($now), r.created_by = $actor, r.note = $note)
FOREACH (_ IN CASE WHEN $type = 'PROMOTED_FROM' THEN [1] ELSE [] END |
  MERGE (a)-[r:PROMOTED_FROM]->(b) ON CREATE SET r.created_at = datetime($now), r.created_by = $actor, r.note = $note)
FOREACH (_ IN CASE WHEN $type = 'OUTCOME_OF' THEN [1] ELSE [] END |
  MERGE (a)-[r:OUTCOME_OF]->(b) ON CREATE SET r.created_at = datetime($now), r.created_by = $actor, r.note = $note)
FOREACH (_ IN CASE WHEN $type = 'PROGRESS_ON' THEN [1] ELSE [] END |
  MERGE (a)-[r:PROGRESS_ON]->(b) ON CREATE SET r.created_at = datetime($now), r.created_by = $actor, r.note = $note)
RETURN a.id AS from_id, b.id AS to_id
