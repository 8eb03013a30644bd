// Hard delete, step 1: the tenant's non-memory nodes the memories point to (claims, sources,
// entities...), as transaction-local element ids. Other memories are never in this set. Threaded
// memories come with their thread, to leave it joined (memories/threads/unlink).
// params: agent, ids
// returns: one
MATCH (m:Memory {agent: $agent})
WHERE m.id IN $ids
OPTIONAL MATCH (m)-[*1..3]->(n)
WHERE NOT n:Memory AND n.agent = $agent
RETURN collect(DISTINCT m.id) AS found, collect(DISTINCT elementId(n)) AS reach,
       collect(DISTINCT m.claim_key) AS claim_keys,
       collect(DISTINCT CASE WHEN m.thread IS NOT NULL THEN {id: m.id, thread: m.thread} END) AS turns
