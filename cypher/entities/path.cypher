// The shortest path between two entities of a tenant over relations that hold at $as_of, at most
// $max_hops relations long (one bounded shortestPath; 6 hops is the ceiling). No row: no such path.
// params: agent, from_id, to_id, max_hops, as_of
// returns: optional
MATCH (a:Entity {agent: $agent, id: $from_id})
MATCH (b:Entity {agent: $agent, id: $to_id})
MATCH p = shortestPath((a)-[:FROM|TO*..12]-(b))
WHERE length(p) <= 2 * $max_hops
  AND all(n IN nodes(p) WHERE n.agent = $agent AND (NOT n:Relation OR
// include: entities/holds_at
  ))
RETURN [e IN nodes(p) WHERE e:Entity | e {.id, .name, .name_key, .kind, .aliases, .created_at, mentions: 0}] AS entities,
       [r IN nodes(p) WHERE r:Relation |
// include: entities/relation
       ] AS relations
