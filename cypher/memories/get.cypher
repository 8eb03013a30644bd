// One memory of one tenant, without its embedding.
// params: agent, id
MATCH (m:Memory {agent: $agent, id: $id})
RETURN m {.*, embedding: null} AS memory
