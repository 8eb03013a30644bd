// Hard delete, step 1: the tenant's non-memory nodes the memory points to (claims, sources,
// entities...), as transaction-local element ids. Other memories are never in this set.
// params: agent, id
// returns: one
MATCH (m:Memory {agent: $agent, id: $id})
OPTIONAL MATCH (m)-[*1..3]->(n)
WHERE NOT n:Memory AND n.agent = $agent
RETURN count(DISTINCT m) AS found, collect(DISTINCT elementId(n)) AS reach, head(collect(DISTINCT m.claim_key)) AS claim_key,
       head(collect(DISTINCT m.thread)) AS thread
