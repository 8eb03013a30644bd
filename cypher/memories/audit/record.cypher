// An audit record of one belief change: who, when, what, and the state before and after (JSON).
// params: agent, id, op, actor, at, before, after, memory_ids
// returns: scalar
CREATE (o:Operation {id: $id, agent: $agent, op: $op, actor: $actor, at: datetime($at),
                     before: $before, after: $after})
WITH o
UNWIND $memory_ids AS memory_id
MATCH (m:Memory {agent: $agent, id: memory_id})
CREATE (o)-[:TOUCHED]->(m)
RETURN count(*) AS touched
