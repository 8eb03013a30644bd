// Hard delete, before the memory goes: its conflicts go, audit records about it alone go, and
// records shared with other memories lose their payload (it may quote the deleted text).
// params: agent, id
// returns: scalar
MATCH (m:Memory {agent: $agent, id: $id})
OPTIONAL MATCH (c:Conflict {agent: $agent})-[:INVOLVES]->(m)
DETACH DELETE c
WITH DISTINCT m
OPTIONAL MATCH (o:Operation {agent: $agent})-[:TOUCHED]->(m)
WITH o, COUNT { (o)-[:TOUCHED]->() } AS touched
FOREACH (_ IN CASE WHEN touched = 1 THEN [1] ELSE [] END | DETACH DELETE o)
FOREACH (_ IN CASE WHEN touched > 1 THEN [1] ELSE [] END | SET o.before = null, o.after = null, o.redacted = true)
RETURN count(o) AS operations
