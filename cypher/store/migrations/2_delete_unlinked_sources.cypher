// Migration to keyed sources: keyless sources no memory links to any more (the twins emptied
// by the step before) go.
// returns: write
MATCH (s:Source) WHERE s.key IS NULL AND NOT EXISTS { (s)<-[:FROM]-() }
DELETE s
