// The most disputed beliefs of a tenant, with their trust and status now.
// params: agent, limit
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.disputes > 0
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim)
RETURN m.id AS id, m.text AS text, m.disputes AS disputes, m.reinforcements AS reinforcements,
       m.trust AS trust, m.status AS status, c.subject AS subject, c.predicate AS predicate
ORDER BY disputes DESC, trust ASC
LIMIT $limit
