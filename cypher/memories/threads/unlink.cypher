// Hard delete, before the memory goes: a turn leaves its thread joined. The turns either side of it
// are linked by a new NEXT edge, so the thread stays one chain; the Thread's LAST edge moves back to
// the turn before when the deleted one was last, and the Thread goes with its last turn.
// params: agent, id, thread_key, now
// returns: scalar
MATCH (m:Memory {agent: $agent, id: $id})
OPTIONAL MATCH (a:Memory)-[:NEXT]->(m)
WHERE a.agent = $agent
OPTIONAL MATCH (m)-[:NEXT]->(b:Memory)
WHERE b.agent = $agent
FOREACH (_ IN CASE WHEN a IS NOT NULL AND b IS NOT NULL THEN [1] ELSE [] END |
  CREATE (a)-[:NEXT {created_at: datetime($now), created_by: 'engine'}]->(b))
WITH DISTINCT m, a
OPTIONAL MATCH (t:Thread {key: $thread_key})
WHERE t.agent = $agent
WITH m, a, t, EXISTS { (t)-[:LAST]->(m) } AS was_last,
     COUNT { MATCH (o:Memory {agent: $agent, thread: m.thread}) } AS turns
FOREACH (_ IN CASE WHEN t IS NOT NULL AND turns > 1 AND was_last AND a IS NOT NULL THEN [1] ELSE [] END |
  CREATE (t)-[:LAST]->(a))
FOREACH (_ IN CASE WHEN t IS NOT NULL AND turns <= 1 THEN [1] ELSE [] END | DETACH DELETE t)
RETURN count(*) AS unlinked
