// Pending conflicts with both sides.
// Each pending Conflict node, oldest first, with the blocked memory and the standing belief, their
// claims, and the CONTRADICTS edge between them.
// params: agent
// returns: many
MATCH (c:Conflict {agent: $agent, status: 'pending'})
MATCH blocked = (c)-[:INVOLVES {role: 'new'}]->(new:Memory)-[:ASSERTS]->(:Claim)
MATCH standing = (c)-[:INVOLVES {role: 'existing'}]->(old:Memory)-[:ASSERTS]->(:Claim)
RETURN c.id AS conflict, c.reason AS reason, new.text AS blocked_text, c.new_trust AS blocked_trust,
       old.text AS standing_text, c.existing_trust AS standing_trust, c.created_at AS since,
       blocked, standing, [p = (new)-[:CONTRADICTS]->(old) | p] AS contradicts
ORDER BY since
LIMIT 100
