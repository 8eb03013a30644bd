// Pending conflicts, oldest first: the blocked claim, the belief it contradicts, and their trusts.
// params: agent
// returns: many
MATCH (c:Conflict {agent: $agent, status: 'pending'})-[:INVOLVES {role: 'new'}]->(new:Memory)
MATCH (c)-[:INVOLVES {role: 'existing'}]->(old:Memory)
OPTIONAL MATCH (new)-[:ASSERTS]->(nc:Claim)
OPTIONAL MATCH (old)-[:ASSERTS]->(oc:Claim)
RETURN c.id AS conflict, c.reason AS reason, nc.subject AS subject, nc.predicate AS predicate,
       nc.value AS blocked_value, c.new_trust AS blocked_trust, oc.value AS standing_value,
       c.existing_trust AS standing_trust, c.created_at AS since
ORDER BY since
