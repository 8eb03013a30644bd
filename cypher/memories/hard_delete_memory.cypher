// Hard delete, step 2: the memory and every relationship it has.
// params: agent, id
// returns: scalar
MATCH (m:Memory {agent: $agent, id: $id})
DETACH DELETE m
RETURN count(*) AS deleted
