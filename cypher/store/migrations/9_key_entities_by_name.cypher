// Migration to entities keyed by normalised name: the new key, an id for the API, kind and aliases.
// returns: write
MATCH (e:Entity) WHERE e.name_key IS NULL
WITH e, toLower(reduce(acc = '', w IN [w IN split(e.name, ' ') WHERE w <> ''] |
                       acc + CASE WHEN acc = '' THEN '' ELSE ' ' END + w)) AS name_key
SET e.name_key = name_key, e.key = e.agent + ' ' + name_key, e.id = coalesce(e.id, randomUUID()),
    e.kind = coalesce(e.kind, 'other'), e.aliases = coalesce(e.aliases, [])
