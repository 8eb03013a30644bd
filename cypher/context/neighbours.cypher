// Context expansion: one hop from the pool along SUPPORTS and CAUSES (either way), and along
// SUPERSEDES only to an active memory, so a superseded belief never comes back this way. The
// caller screens the neighbours through search's visibility filters.
// params: agent, ids
// returns: many
UNWIND $ids AS id
MATCH (p:Memory {agent: $agent, id: id})-[r:SUPPORTS|CAUSES|SUPERSEDES]-(n:Memory {agent: $agent})
WITH p, n, type(r) AS via
WHERE NOT n.id IN $ids AND (via <> 'SUPERSEDES' OR n.status = 'active')
RETURN n.id AS id, collect(DISTINCT via) AS via, collect(DISTINCT p.id) AS from_ids
