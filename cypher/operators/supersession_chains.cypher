// Supersession chains of one subject.
// Every newest belief about $subject (whatever its predicate or status) with the memories it
// replaced, newest to oldest, as a path and as text.
// params: agent, subject
// returns: many
MATCH (head:Memory {agent: $agent})-[:ASSERTS]->(claim:Claim {subject: $subject})
WHERE NOT EXISTS { (:Memory)-[:SUPERSEDES]->(head) }
MATCH chain = (head)-[:SUPERSEDES*0..20]->(oldest:Memory)
WHERE NOT EXISTS { (oldest)-[:SUPERSEDES]->(:Memory) }
RETURN claim.predicate AS predicate, head.status AS status, [m IN nodes(chain) | m.text] AS newest_to_oldest,
       [r IN relationships(chain) | r.reason] AS reasons, chain
ORDER BY predicate, head.created_at DESC
