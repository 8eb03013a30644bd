// Which of these name keys already name an entity of the tenant, or are an alias of one.
// params: agent, keys
// returns: many
UNWIND $keys AS key
MATCH (e:Entity {agent: $agent})
WHERE e.key = $agent + ' ' + key OR EXISTS { MATCH (e)-[:ALIAS]->(:EntityAlias {key: $agent + ' ' + key}) }
RETURN key, e.id AS id
