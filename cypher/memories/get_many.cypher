// Several memories of one tenant by id; ids of other tenants match nothing.
// params: agent, ids
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
RETURN m {.*, embedding: null} AS memory
