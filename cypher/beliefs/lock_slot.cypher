// Takes the write lock of one (agent, subject, predicate) for the rest of the transaction, for a
// change to one belief outside the write path (which locks its slots with beliefs/slots/open).
// params: agent, key, subject, predicate, now
// returns: scalar
MERGE (s:BeliefSlot {key: $key})
ON CREATE SET s.agent = $agent, s.subject = $subject, s.predicate = $predicate
SET s.locked_at = datetime($now), s.writes = coalesce(s.writes, 0) + 1
RETURN s.writes AS writes
