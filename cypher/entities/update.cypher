// An operator sets an entity's kind and adds known aliases: each alias is a node keyed (agent,
// name key) under a uniqueness constraint, so a name resolves to one entity only.
// params: agent, id, kind, aliases
// returns: optional
MATCH (e:Entity {agent: $agent, id: $id})
SET e.kind = coalesce($kind, e.kind),
    e.aliases = coalesce(e.aliases, []) + [a IN $aliases WHERE NOT a.name IN coalesce(e.aliases, []) | a.name]
FOREACH (a IN $aliases |
  MERGE (n:EntityAlias {key: a.key})
  ON CREATE SET n.agent = $agent, n.name = a.name
  MERGE (e)-[:ALIAS]->(n))
RETURN e {.id, .name, .name_key, .kind, .aliases, .created_at,
          mentions: size([(e)<-[:ABOUT]-(c:Claim) | c])} AS entity
