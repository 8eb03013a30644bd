// Near-duplicate candidates of one memory whose neighbours the vector index could not page through
// within its limit: the tenant's active memories ranked exactly. `similarity` is the backend's
// vector.similarity.cosine, mapped to cosine by the caller (graph/retrieval/cosine_scale.py).
// params: agent, id
// returns: many
MATCH (p:Memory {agent: $agent, id: $id})
MATCH (m:Memory {agent: $agent, status: 'active'})
WHERE m.id <> p.id AND m.embedding IS NOT NULL
RETURN m.id AS id, vector.similarity.cosine(m.embedding, p.embedding) AS similarity
