// Merge, last step: the kept entity takes the merged one's name and aliases as its aliases (so
// claims naming it resolve here from now on), and the merged entity goes.
// params: agent, keep_id, gone_id, aliases, kind
// returns: one
MATCH (keep:Entity {agent: $agent, id: $keep_id})
MATCH (gone:Entity {agent: $agent, id: $gone_id})
OPTIONAL MATCH (gone)-[old:ALIAS]->(n:EntityAlias)
FOREACH (_ IN CASE WHEN n IS NULL THEN [] ELSE [1] END | CREATE (keep)-[:ALIAS]->(n))
DELETE old
WITH DISTINCT keep, gone
DETACH DELETE gone
WITH keep
SET keep.kind = $kind,
    keep.aliases = coalesce(keep.aliases, []) + [a IN $aliases WHERE NOT a.name IN coalesce(keep.aliases, []) | a.name]
FOREACH (a IN $aliases |
  MERGE (n:EntityAlias {key: a.key})
  ON CREATE SET n.agent = $agent, n.name = a.name
  MERGE (keep)-[:ALIAS]->(n))
RETURN keep {.id, .name, .name_key, .kind, .aliases, .created_at,
             mentions: size([(keep)<-[:ABOUT]-(c:Claim) | c])} AS entity
