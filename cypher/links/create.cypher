// Links two memories of one tenant: (from)-[:SUPPORTS]->(to) says `from` supports `to`,
// (from)-[:CAUSES]->(to) that `from` caused `to`. Idempotent. No row: a memory is missing.
// params: agent, from_id, to_id, type, note, now
// returns: optional
MATCH (a:Memory {agent: $agent, id: $from_id})
MATCH (b:Memory {agent: $agent, id: $to_id})
FOREACH (_ IN CASE WHEN $type = 'SUPPORTS' THEN [1] ELSE [] END |
  MERGE (a)-[r:SUPPORTS]->(b) ON CREATE SET r.at = datetime($now), r.note = $note)
FOREACH (_ IN CASE WHEN $type = 'CAUSES' THEN [1] ELSE [] END |
  MERGE (a)-[r:CAUSES]->(b) ON CREATE SET r.at = datetime($now), r.note = $note)
RETURN a.id AS from_id, b.id AS to_id
