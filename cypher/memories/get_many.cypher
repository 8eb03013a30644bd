// Several memories of one tenant by id, each with its claim if it has one.
// params: agent, ids
// returns: many
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim)
RETURN m {.*, embedding: null} AS memory, c {.*} AS claim
