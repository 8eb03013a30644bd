// Which of these name keys are known aliases, and of which entity (its key). Keys that are not
// aliases answer no row: they name their own entity.
// params: agent, keys
// returns: many
UNWIND $keys AS key
MATCH (e:Entity {agent: $agent})-[:ALIAS]->(:EntityAlias {key: key})
RETURN key, e.key AS entity_key
