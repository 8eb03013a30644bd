// Migration to keyed entities: keyless entities no claim is about any more go.
// returns: write
MATCH (e:Entity) WHERE e.key IS NULL AND NOT EXISTS { (e)<-[:ABOUT]-() }
DELETE e
