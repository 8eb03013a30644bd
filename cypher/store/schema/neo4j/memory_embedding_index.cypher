// Neo4j only: the ANN index behind semantic search. $options carries the model's dimension.
// params: options
// returns: write
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (m:Memory) ON m.embedding
OPTIONS $options
