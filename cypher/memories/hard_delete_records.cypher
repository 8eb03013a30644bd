// Hard delete, before the memories go: their conflicts go, audit records about them alone go, and
// records shared with other memories lose their payload (it may quote the deleted text).
// params: agent, ids
// returns: scalar
MATCH (m:Memory {agent: $agent})
WHERE m.id IN $ids
OPTIONAL MATCH (c:Conflict {agent: $agent})-[:INVOLVES]->(m)
DETACH DELETE c
WITH DISTINCT m
OPTIONAL MATCH (o:Operation {agent: $agent})-[:TOUCHED]->(m)
WITH DISTINCT o
WITH o, COUNT { (o)-[:TOUCHED]->(x:Memory) WHERE NOT x.id IN $ids } AS kept
FOREACH (_ IN CASE WHEN kept = 0 THEN [1] ELSE [] END | DETACH DELETE o)
FOREACH (_ IN CASE WHEN kept > 0 THEN [1] ELSE [] END | SET o.before = null, o.after = null, o.redacted = true)
RETURN count(o) AS operations
