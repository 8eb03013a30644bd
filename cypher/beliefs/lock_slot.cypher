// Takes the write lock of one (agent, subject, predicate) for the rest of the transaction:
// concurrent writers of the same belief queue here (Neo4j) or fail and retry (ArcadeDB's MVCC).
// params: agent, key, subject, predicate, now
// returns: scalar
MERGE (s:BeliefSlot {key: $key})
ON CREATE SET s.agent = $agent, s.subject = $subject, s.predicate = $predicate
SET s.locked_at = datetime($now), s.writes = coalesce(s.writes, 0) + 1
RETURN s.writes AS writes
