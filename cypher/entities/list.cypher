// A tenant's entities in name order, a page at a time ($after: the last name key of the page
// before), optionally of one kind or with one name (its own name key, or an alias under its key).
// params: agent, kind, name_key, alias_key, after, limit
// returns: many
MATCH (e:Entity {agent: $agent})
WHERE ($kind IS NULL OR e.kind = $kind)
  AND ($after IS NULL OR e.name_key > $after)
  AND ($name_key IS NULL OR e.name_key = $name_key
       OR EXISTS { MATCH (e)-[:ALIAS]->(:EntityAlias {key: $alias_key}) })
WITH e ORDER BY e.name_key LIMIT $limit
RETURN e {.id, .name, .name_key, .kind, .aliases, .created_at,
          mentions: size([(e)<-[:ABOUT]-(c:Claim) | c])} AS entity
