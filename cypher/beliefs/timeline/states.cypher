// The states of one slot's valid-time timeline, under the same scope gate as find_conflicts:
// exclusive beliefs that are active, or history that a newer state superseded by valid time
// (a belief superseded by trust or correction was wrong, not past, and is no state of it).
// params: agent, subject, predicate, scope, session_id
// returns: many
MATCH (m:Memory {agent: $agent})-[:ASSERTS]->(c:Claim {agent: $agent, subject: $subject, predicate: $predicate})
WHERE c.exclusive AND m.status IN ['active', 'superseded']
  AND ((c.scope = 'session') = ($scope = 'session'))
  AND ($scope <> 'session' OR c.session_id = $session_id)
WITH m, c, EXISTS { MATCH (:Memory {agent: $agent})-[:SUPERSEDES {reason: 'newer_valid_time'}]->(m) } AS succeeded
WHERE m.status = 'active' OR succeeded
RETURN m.id AS id, m.status AS status, succeeded, m.source_type AS source_type, m.corroboration AS corroboration,
       m.reinforcements AS reinforcements, m.disputes AS disputes, m.created_at AS created_at,
       c.valid_from AS valid_from, c.valid_until AS valid_until, m.event_at AS event_at
ORDER BY m.created_at
