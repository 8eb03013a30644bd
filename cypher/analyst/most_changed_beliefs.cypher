// The beliefs that changed most often: per (subject, predicate), the longest SUPERSEDES chain
// behind a current belief (up to 50 steps), with the current value(s).
// params: agent, limit
// returns: many
MATCH (head:Memory {agent: $agent, status: 'active'})-[:ASSERTS]->(c:Claim)
MATCH chain = (head)-[:SUPERSEDES*1..50]->(oldest:Memory {agent: $agent})
WHERE NOT EXISTS { MATCH (oldest)-[:SUPERSEDES]->(:Memory) }
WITH c.subject AS subject, c.predicate AS predicate, head, max(length(chain)) AS changes
WITH subject, predicate, max(changes) AS changes, collect(DISTINCT head.text) AS current
RETURN subject, predicate, changes, current
ORDER BY changes DESC, subject, predicate
LIMIT $limit
