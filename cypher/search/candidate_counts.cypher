// Sizes that steer retrieval: all memories in the vector index vs this tenant's candidates.
// params: agent, statuses, memory_types
MATCH (any_memory:Memory)
WITH count(any_memory) AS total
OPTIONAL MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses AND ($memory_types IS NULL OR m.memory_type IN $memory_types)
RETURN total, count(m) AS tenant
