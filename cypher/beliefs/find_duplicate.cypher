// An active belief that already says the same thing: same subject, predicate and normalised
// value, same scope (and, for a session claim, the same session), overlapping validity. Dedup
// corroborates it instead.
// params: agent, subject, predicate, normalized_value, scope, session_id, valid_from, valid_until
// returns: optional
MATCH (m:Memory {agent: $agent, status: 'active'})-[:ASSERTS]->(c:Claim {agent: $agent, subject: $subject, predicate: $predicate})
WHERE c.normalized_value = $normalized_value AND c.scope = $scope
  AND ($scope <> 'session' OR c.session_id = $session_id)
  // Windows are half-open [valid_from, valid_until): [a, b) and [b, c) touch and do not overlap.
  AND (c.valid_from IS NULL OR $valid_until IS NULL OR c.valid_from < datetime($valid_until))
  AND (c.valid_until IS NULL OR $valid_from IS NULL OR datetime($valid_from) < c.valid_until)
RETURN m.id AS id
ORDER BY m.created_at
LIMIT 1
