// Stores recomputed trust (confidence equals trust) and, optionally, a new status; returns the
// memory with its claim.
// params: agent, memory_id, trust, status, now
// returns: optional
MATCH (m:Memory {agent: $agent, id: $memory_id})
SET m.trust = $trust, m.confidence = $trust, m.status = coalesce($status, m.status),
    m.updated_at = datetime($now)
WITH m
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim)
RETURN m {.*, embedding: null} AS memory, c {.*} AS claim
