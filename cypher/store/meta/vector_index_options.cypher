// The configuration of the vector index, to compare its dimension with the model's.
// ArcadeDB answers with empty options; the CredenceMeta node covers that case.
// returns: many
SHOW INDEXES YIELD name, type, options
WHERE name = 'memory_embedding'
RETURN type, options
