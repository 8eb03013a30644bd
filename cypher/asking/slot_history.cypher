// Every state of a slot of the tenant, oldest first: the memories asserting one of $predicates
// about one of $subjects that are active or superseded (quarantined and archived ones are no
// belief), global claims only, within the sensitivity ceiling, without what the request excludes,
// and without states that only begin after $as_of (valid time: the question is asked then). A
// superseded state keeps its validity window; the caller marks the one that holds at $as_of as current.
// params: agent, subjects, predicates, sensitivities, as_of, exclude_needles, exclude_patterns
// returns: many
MATCH (c:Claim {agent: $agent})
WHERE c.subject IN $subjects AND c.predicate IN $predicates
MATCH (c)<-[:ASSERTS]-(m:Memory)
WHERE m.agent = $agent AND m.status IN ['active', 'superseded'] AND m.session_id IS NULL
  AND coalesce(m.sensitivity, 'normal') IN $sensitivities
  AND coalesce(m.valid_from, m.event_at, m.created_at) <= datetime($as_of)
  AND NOT any(i IN range(0, size($exclude_patterns) - 1)
              WHERE toLower(m.text) CONTAINS $exclude_needles[i] AND toLower(m.text) =~ $exclude_patterns[i])
WITH m, c ORDER BY coalesce(m.valid_from, m.event_at, m.created_at), m.created_at, m.id
RETURN m {.*, embedding: null} AS memory, c {.*} AS claim,
       [(m)<-[:SUPERSEDES]-(n:Memory) WHERE n.agent = $agent | n.id][0] AS superseded_by
