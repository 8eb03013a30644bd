// Supersession chains: each active belief about a subject and predicate, with everything it
// replaced, newest first, and why each step happened.
// params: agent, subject, predicate
// returns: many
MATCH (head:Memory {agent: $agent, status: 'active'})-[:ASSERTS]->(:Claim {subject: $subject, predicate: $predicate})
MATCH chain = (head)-[:SUPERSEDES*0..20]->(oldest:Memory)
WHERE NOT EXISTS { (oldest)-[:SUPERSEDES]->(:Memory) }
RETURN head.id AS belief, [m IN nodes(chain) | m.text] AS newest_to_oldest,
       [r IN relationships(chain) | r.reason] AS reasons
