// Records which embedding model and dimension the graph's vectors come from.
// params: model, dimensions
// returns: write
MERGE (c:CredenceMeta {key: 'embedding'})
ON CREATE SET c.created_at = datetime()
SET c.model = $model, c.dimensions = $dimensions
