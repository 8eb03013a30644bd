// The relations within $depth hops (1..3) of an entity that hold at $as_of, reached only through
// relations that hold then too. One query, expanded level by level with DISTINCT frontiers (a
// variable-length pattern would enumerate every path up to the bound, whatever $depth asks). A hop
// is entity -> relation -> entity.
// params: agent, id, depth, as_of
// returns: optional
MATCH (root:Entity {agent: $agent, id: $id})
OPTIONAL MATCH (root)<-[:FROM|TO]-(n:Relation {agent: $agent})
WHERE
// include: entities/holds_at
WITH root, collect(DISTINCT n) AS hop1
UNWIND CASE WHEN $depth >= 2 AND size(hop1) > 0 THEN hop1 ELSE [null] END AS r1
OPTIONAL MATCH (r1)-[:FROM|TO]->(x:Entity {agent: $agent})
WITH DISTINCT root, hop1, x
OPTIONAL MATCH (x)<-[:FROM|TO]-(n:Relation {agent: $agent})
WHERE
// include: entities/holds_at
WITH root, hop1, collect(DISTINCT n) AS hop2
UNWIND CASE WHEN $depth >= 3 AND size(hop2) > 0 THEN hop2 ELSE [null] END AS r2
OPTIONAL MATCH (r2)-[:FROM|TO]->(x:Entity {agent: $agent})
WITH DISTINCT root, hop1, hop2, x
OPTIONAL MATCH (x)<-[:FROM|TO]-(n:Relation {agent: $agent})
WHERE
// include: entities/holds_at
WITH root, hop1, hop2, collect(DISTINCT n) AS hop3
UNWIND CASE WHEN size(hop1 + hop2 + hop3) > 0 THEN hop1 + hop2 + hop3 ELSE [null] END AS r
WITH root, collect(DISTINCT r) AS relations
RETURN root {.id, .name, .name_key, .kind, .aliases, .created_at,
             mentions: size([(root)<-[:ABOUT]-(c:Claim) | c])} AS entity,
       [r IN relations |
// include: entities/relation
       ] AS relations
