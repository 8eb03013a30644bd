// Appends one tenant's new memories to their conversation threads, in the caller's transaction,
// after memories/create: per thread ($threads: key, id, and the new memories' ids in order), the
// Thread node (keyed, graph/core/keys.py: thread_key, under a uniqueness constraint, so parallel
// writers of a new thread share one) is write-locked before its tail is read, each new memory gets
// its place (`turn`), a NEXT edge joins each turn to the one before, and the Thread's LAST edge
// moves to the newest. Rows come sorted by key, so writers lock threads in one order.
// The tail is reached by the Thread's LAST edge, not matched by id: under parallel writers ArcadeDB
// may not find by property a memory another transaction has just committed (docs/backends.md 2.13).
// params: agent, threads, now
// returns: many
UNWIND $threads AS th
MERGE (t:Thread {key: th.key})
ON CREATE SET t.agent = $agent, t.id = th.id, t.turns = 0, t.created_at = datetime($now)
// Write-lock the thread before reading its tail: under read committed, two writers that read the
// same tail would both link to it (Neo4j); ArcadeDB's optimistic commit makes one of them retry.
SET t.locking = true
REMOVE t.locking
WITH t, th, t.turns AS first
OPTIONAL MATCH (t)-[tail:LAST]->(last:Memory)
FOREACH (r IN CASE WHEN tail IS NULL THEN [] ELSE [tail] END | DELETE r)
SET t.turns = first + size(th.members), t.updated_at = datetime($now)
WITH t, th, first, last
UNWIND range(0, size(th.members) - 1) AS i
MATCH (m:Memory {agent: $agent, id: th.members[i]})
SET m.turn = first + i
WITH t, th, i, m, last
// The earlier new turns are this transaction's own: found by id.
OPTIONAL MATCH (p:Memory {agent: $agent, id: CASE WHEN i > 0 THEN th.members[i - 1] END})
WITH t, th, i, m, CASE WHEN i = 0 THEN last ELSE p END AS before
FOREACH (b IN CASE WHEN before IS NULL THEN [] ELSE [before] END |
  CREATE (b)-[:NEXT {created_at: datetime($now), created_by: 'engine'}]->(m))
FOREACH (_ IN CASE WHEN i = size(th.members) - 1 THEN [1] ELSE [] END | CREATE (t)-[:LAST]->(m))
RETURN m.id AS id, m.turn AS turn, before.id AS previous
