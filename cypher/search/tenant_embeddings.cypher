// Exact scoring for a small tenant: its candidates' embeddings, scored in Python.
// params: agent, statuses, memory_types
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses AND ($memory_types IS NULL OR m.memory_type IN $memory_types)
  AND m.embedding IS NOT NULL
RETURN m.id AS id, m.embedding AS embedding
