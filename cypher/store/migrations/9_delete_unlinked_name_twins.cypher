// Migration to entities keyed by normalised name: unkeyed entities no claim is about any more go.
// returns: write
MATCH (e:Entity) WHERE e.name_key IS NULL AND NOT EXISTS { (e)<-[:ABOUT]-() }
DETACH DELETE e
