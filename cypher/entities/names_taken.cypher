// Which of these entity keys (graph/core/keys.py) already name an entity of the tenant, or are an
// alias of one.
// params: agent, keys
// returns: many
UNWIND $keys AS key
MATCH (e:Entity {agent: $agent})
WHERE e.key = key OR EXISTS { MATCH (e)-[:ALIAS]->(:EntityAlias {key: key}) }
RETURN key, e.id AS id
