// Near-duplicates merged, step 2: each survivor gains its merged members' sources (FROM), so its
// corroboration counts them. A source it already has adds nothing.
// params: agent, now, rows
// returns: scalar
UNWIND $rows AS row
UNWIND row.merged AS mid
MATCH (s:Memory {agent: $agent, id: row.survivor})
MATCH (:Memory {agent: $agent, id: mid})-[:FROM]->(src:Source)
MERGE (s)-[f:FROM]->(src)
ON CREATE SET f.at = datetime($now)
RETURN count(f) AS linked
