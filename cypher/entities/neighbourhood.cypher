// The relations within $depth hops (1..3) of an entity that hold at $as_of, reached only through
// relations that hold then too: one bounded variable-length pattern (a hop is entity -> relation
// -> entity, two edges).
// params: agent, id, depth, as_of
// returns: optional
MATCH (root:Entity {agent: $agent, id: $id})
OPTIONAL MATCH p = (root)-[:FROM|TO*1..5]-(:Relation)
WHERE length(p) <= 2 * $depth - 1
  AND all(n IN nodes(p) WHERE n.agent = $agent AND (NOT n:Relation OR
// include: entities/holds_at
  ))
UNWIND CASE WHEN p IS NULL THEN [null] ELSE [x IN nodes(p) WHERE x:Relation] END AS r
WITH root, collect(DISTINCT r) AS relations
RETURN root {.id, .name, .name_key, .kind, .aliases, .created_at,
             mentions: size([(c:Claim)-[:ABOUT]->(root) | c])} AS entity,
       [r IN relations |
// include: entities/relation
       ] AS relations
