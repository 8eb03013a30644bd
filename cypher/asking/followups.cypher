// What came of decisions, or the progress recorded on goals: the memories with an $kind edge
// (OUTCOME_OF or PROGRESS_ON) to one of $ids, active, within the sensitivity ceiling and without
// what the request excludes, oldest first.
// params: agent, ids, kind, sensitivities, exclude_needles, exclude_patterns
// returns: many
UNWIND $ids AS id
MATCH (t:Memory {agent: $agent, id: id})
MATCH (t)<-[r:OUTCOME_OF|PROGRESS_ON]-(m:Memory)
WHERE type(r) = $kind AND m.agent = $agent AND m.status = 'active'
  AND coalesce(m.sensitivity, 'normal') IN $sensitivities
  AND NOT any(i IN range(0, size($exclude_patterns) - 1)
              WHERE toLower(m.text) CONTAINS $exclude_needles[i] AND toLower(m.text) =~ $exclude_patterns[i])
WITH t, m ORDER BY coalesce(m.event_at, m.created_at), m.id
RETURN t.id AS target, m {.*, embedding: null} AS memory, [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] AS claim
