// Near-duplicates merged into the memory that stays, a batch of groups in one statement. Each node is
// write-locked before its status is read, so a concurrent change either lands first (and a member or
// survivor no longer active is left out) or waits. A member that is still active is archived and
// linked (member)-[:DUPLICATE_OF]->(survivor); the survivor gains the members' sources (FROM), the
// union of the group's tags, its highest importance, its most trusted source type and its latest
// expiry, and answers its trust terms (the caller recomputes trust with graph/beliefs/trust.py).
// Edges are made between nodes matched at the top level: ArcadeDB's CREATE inside a CALL subquery
// made a new, empty node for an imported one (docs/backends.md).
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
WITH s, g, d, member
WHERE d.status = 'active'
SET d.status = 'archived', d.archived_at = datetime($now), d.updated_at = datetime($now), d.version = d.version + 1
CREATE (d)-[:DUPLICATE_OF {created_at: datetime($now), created_by: 'consolidation', note: member.note}]->(s)
WITH s, g, d
MATCH (d)-[:FROM]->(src:Source)
WITH s, g, collect(DISTINCT d.id) AS merged, collect(DISTINCT src) AS sources
UNWIND sources AS src
MERGE (s)-[f:FROM]->(src)
ON CREATE SET f.at = datetime($now)
WITH s, g, merged, count(f) AS linked
SET s.tags = g.tags, s.importance = g.importance, s.source_type = g.source_type,
    s.expires_at = datetime(g.expires_at), s.updated_at = datetime($now), s.version = s.version + 1
SET s.corroboration = COUNT { (s)-[:FROM]->(:Source) }
RETURN s.id AS survivor, merged, s.trust AS trust_before, s.source_type AS source_type,
       s.corroboration AS corroboration, s.reinforcements AS reinforcements, s.disputes AS disputes,
       s.created_at AS created_at
