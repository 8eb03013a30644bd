// The tenant's relations with these keys (the twins a merge folds into).
// params: agent, keys
// returns: many
UNWIND $keys AS key
MATCH (r:Relation {agent: $agent, key: key})
RETURN key, r.id AS id
