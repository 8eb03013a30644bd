// Contradiction clusters: memories tied together by CONTRADICTS edges (either way, up to 10 steps),
// largest first, each with its members. With $open_only, only contradictions still pending count.
// params: agent, open_only
// returns: many
MATCH (m:Memory {agent: $agent})-[c:CONTRADICTS]-(:Memory {agent: $agent})
WHERE NOT $open_only OR c.resolved_at IS NULL
WITH DISTINCT m
MATCH (m)-[rs:CONTRADICTS*0..10]-(o:Memory {agent: $agent})
WHERE NOT $open_only OR all(r IN rs WHERE r.resolved_at IS NULL)
WITH m, o ORDER BY o.id
WITH m, collect(DISTINCT o {.id, .text, .status}) AS members
WITH DISTINCT members[0].id AS cluster, members
RETURN cluster, size(members) AS size, members
ORDER BY size DESC, cluster
