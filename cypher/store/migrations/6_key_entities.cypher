// Migration to keyed entities: the key the uniqueness constraint guards (agent ids hold no space).
// returns: write
MATCH (e:Entity) WHERE e.key IS NULL
SET e.key = e.agent + ' ' + e.name
