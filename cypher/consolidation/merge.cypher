// Near-duplicates merged into the memory that stays, step 1, a batch of groups in one statement.
// Each node is write-locked before its status is read, so a concurrent change either lands first (and
// a member or survivor no longer active is left out) or waits. A member that is still active is
// archived and linked (member)-[:DUPLICATE_OF]->(survivor). Edges are made between nodes matched at
// the top level: ArcadeDB's CREATE inside a CALL subquery made a new, empty node for an imported one
// (docs/backends.md). Rows: each survivor with the members merged into it.
// params: agent, now, groups
// returns: many
UNWIND $groups AS g
MATCH (s:Memory {agent: $agent, id: g.survivor})
SET s.locking = true
REMOVE s.locking
WITH s, g
WHERE s.status = 'active'
UNWIND g.members AS member
MATCH (d:Memory {agent: $agent, id: member.id})
SET d.locking = true
REMOVE d.locking
WITH s, d, member
WHERE d.status = 'active'
SET d.status = 'archived', d.archived_at = datetime($now), d.updated_at = datetime($now), d.version = d.version + 1
CREATE (d)-[:DUPLICATE_OF {created_at: datetime($now), created_by: 'consolidation', note: member.note}]->(s)
RETURN s.id AS survivor, collect(d.id) AS merged
