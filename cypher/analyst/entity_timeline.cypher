// An entity's timeline: every relationship it took part in, one row per memory that evidences
// it, in valid-time order, with the memory's status (superseded rows are the history).
// params: agent, name_key
// returns: many
MATCH (e:Entity {agent: $agent, name_key: $name_key})
MATCH (e)<-[:FROM|TO]-(r:Relation {agent: $agent})<-[:EVIDENCES]-(m:Memory {agent: $agent})
MATCH (r)-[:FROM]->(a:Entity)
MATCH (r)-[:TO]->(b:Entity)
RETURN coalesce(m.valid_from, m.created_at) AS valid_from, m.valid_until AS valid_until,
       a.name AS source, r.type AS type, b.name AS target, m.status AS status, m.text AS memory,
       m.created_at AS recorded_at
ORDER BY valid_from, recorded_at
