// Belief graph of a tenant (25 newest memories).
// Its 25 newest memories, of any status, with their claims, entities and sources, and the
// SUPERSEDES and CONTRADICTS edges that leave them.
// params: agent
// returns: many
MATCH (m:Memory {agent: $agent})
WITH m ORDER BY m.created_at DESC LIMIT 25
RETURN m AS memory,
       [p = (m)-[:ASSERTS]->(:Claim)-[:ABOUT]->(:Entity) | p] AS claims,
       [p = (m)-[:FROM]->(:Source) | p] AS sources,
       [p = (m)-[:SUPERSEDES|CONTRADICTS]->(:Memory) | p] AS edges
ORDER BY m.created_at DESC
