// Provenance: links a memory to a source (keyed per tenant, type and ref) and recounts its
// corroboration as the number of distinct sources behind it. A repeat source adds nothing.
// params: agent, memory_id, source_key, source_type, source_ref, now
// returns: one
MATCH (m:Memory {agent: $agent, id: $memory_id})
MERGE (s:Source {key: $source_key})
ON CREATE SET s.agent = $agent, s.type = $source_type, s.ref = $source_ref
MERGE (m)-[f:FROM]->(s)
ON CREATE SET f.at = datetime($now)
WITH m
SET m.corroboration = COUNT { (m)-[:FROM]->(:Source) }
RETURN m.corroboration AS corroboration, m.source_type AS source_type, m.reinforcements AS reinforcements,
       m.disputes AS disputes, m.created_at AS created_at
