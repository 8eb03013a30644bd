// Import: the Thread nodes of the memories a batch brought ($threads: key and id), after their NEXT
// edges. A thread's tail (its LAST edge) is its turn of the highest place, and its count of turns one
// past that place, unless the thread already runs further (turns written before the import).
// params: agent, threads, now
// returns: scalar
UNWIND $threads AS th
MERGE (t:Thread {key: th.key})
ON CREATE SET t.agent = $agent, t.id = th.id, t.turns = 0, t.created_at = datetime($now)
SET t.locking = true
REMOVE t.locking
WITH t
CALL (t) {
  MATCH (m:Memory {agent: $agent, thread: t.id})
  WHERE m.turn IS NOT NULL
  WITH m ORDER BY m.turn DESC
  LIMIT 1
  RETURN m AS top
}
WITH t, top, coalesce(t.turns, 0) > top.turn AS ahead
WHERE NOT ahead
OPTIONAL MATCH (t)-[tail:LAST]->()
FOREACH (r IN CASE WHEN tail IS NULL THEN [] ELSE [tail] END | DELETE r)
SET t.turns = top.turn + 1, t.updated_at = datetime($now)
CREATE (t)-[:LAST]->(top)
RETURN count(t) AS threads
