// Structural conflict detection: active, exclusive beliefs with the same subject and predicate,
// a different normalised value and an overlapping validity window. Scope gate: a session claim
// only meets claims of its own session; global and temporal claims meet each other, whatever
// session_id they carry.
// params: agent, subject, predicate, normalized_value, scope, session_id, valid_from, valid_until
// returns: many
MATCH (m:Memory {agent: $agent, status: 'active'})-[:ASSERTS]->(c:Claim {agent: $agent, subject: $subject, predicate: $predicate})
WHERE c.exclusive AND c.normalized_value <> $normalized_value
  AND ((c.scope = 'session') = ($scope = 'session'))
  AND ($scope <> 'session' OR c.session_id = $session_id)
  // Windows are half-open [valid_from, valid_until): [a, b) and [b, c) touch and do not overlap.
  AND (c.valid_from IS NULL OR $valid_until IS NULL OR c.valid_from < datetime($valid_until))
  AND (c.valid_until IS NULL OR $valid_from IS NULL OR datetime($valid_from) < c.valid_until)
RETURN m.id AS id, m.source_type AS source_type, m.corroboration AS corroboration,
       m.reinforcements AS reinforcements, m.disputes AS disputes, m.created_at AS created_at,
       m.trust AS trust, c.valid_from AS valid_from, c.valid_until AS valid_until, m.event_at AS event_at
ORDER BY m.created_at
