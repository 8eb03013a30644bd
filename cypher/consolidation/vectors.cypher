// The embeddings and texts of some of a tenant's memories (the events a digest may gather).
// params: agent, ids
// returns: many
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
RETURN m.id AS id, m.text AS text, m.embedding AS embedding
