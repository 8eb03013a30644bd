// One memory of one tenant, without its embedding, with the claim it asserts (if any).
// params: agent, id
// returns: optional
MATCH (m:Memory {agent: $agent, id: $id})
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim)
RETURN m {.*, embedding: null} AS memory, c {.*} AS claim
