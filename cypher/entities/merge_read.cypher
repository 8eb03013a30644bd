// Merge, step 1: both entities, and every relation of the one that goes, with the other end's key
// and which end the merged entity is. No row: either is not an entity of this tenant.
// params: agent, keep_id, gone_id
// returns: optional
MATCH (keep:Entity {agent: $agent, id: $keep_id})
MATCH (gone:Entity {agent: $agent, id: $gone_id})
OPTIONAL MATCH (gone)<-[end:FROM|TO]-(r:Relation {agent: $agent})-[:FROM|TO]->(other:Entity)
WITH keep, gone, collect(CASE WHEN r IS NULL THEN null ELSE
       {id: r.id, type: r.type, end: type(end), other_key: other.key} END) AS relations
RETURN keep {.id, .key, .name, .kind, .aliases} AS keep, gone {.id, .key, .name, .kind, .aliases} AS gone, relations
