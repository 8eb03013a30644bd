// The embedding model and dimension the stored vectors were made with (none on a new graph).
// returns: one
OPTIONAL MATCH (c:CredenceMeta {key: 'embedding'})
RETURN c.model AS model, c.dimensions AS dimensions
