// The sources behind one belief: type, reference and when each one confirmed it.
// params: agent, id
// returns: many
MATCH (m:Memory {agent: $agent, id: $id})-[f:FROM]->(s:Source)
RETURN s.type AS source, s.ref AS ref, f.at AS confirmed_at, m.trust AS trust, m.corroboration AS corroboration
ORDER BY confirmed_at
