// Quarantine lane.
// Each quarantined memory, newest first, why it is there, and the beliefs it challenged (the
// standing side of its conflicts).
// params: agent
// returns: many
MATCH (q:Memory {agent: $agent, status: 'quarantined'})
OPTIONAL MATCH (q)-[:ASSERTS]->(claim:Claim)
OPTIONAL MATCH (c:Conflict)-[:INVOLVES {role: 'new'}]->(q)
OPTIONAL MATCH (c)-[:INVOLVES {role: 'existing'}]->(standing:Memory)
WITH q, claim, collect(standing {.id, .text, .status, .trust, conflict: c.id, conflict_status: c.status}) AS challenged
RETURN q.id AS id, q.text AS text, q.trust AS trust, q.quarantine_reason AS reason,
       q.quarantine_details AS details, q.quarantined_at AS since, claim.subject AS subject,
       claim.predicate AS predicate, claim.value AS value, challenged
ORDER BY since DESC
LIMIT 100
