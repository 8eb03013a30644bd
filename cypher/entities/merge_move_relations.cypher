// Merge, step 3: a relation of the entity that goes, with no twin at the one kept, now ends there,
// under its new key.
// params: agent, keep_id, gone_id, rows
// returns: scalar
MATCH (keep:Entity {agent: $agent, id: $keep_id})
UNWIND $rows AS row
MATCH (r:Relation {agent: $agent, id: row.id})-[end:FROM|TO]->(:Entity {agent: $agent, id: $gone_id})
WITH keep, r, end, row, type(end) AS side
FOREACH (_ IN CASE WHEN side = 'FROM' THEN [1] ELSE [] END | CREATE (r)-[:FROM]->(keep))
FOREACH (_ IN CASE WHEN side = 'TO' THEN [1] ELSE [] END | CREATE (r)-[:TO]->(keep))
DELETE end
SET r.key = row.key
RETURN count(*) AS moved
