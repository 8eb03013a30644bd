// Hard delete, step 2: the memories and every relationship they have.
// params: agent, ids
// returns: scalar
MATCH (m:Memory {agent: $agent})
WHERE m.id IN $ids
DETACH DELETE m
RETURN count(*) AS deleted
