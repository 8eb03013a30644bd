// Migration to keyed sources: the key the uniqueness constraint guards. Agent ids and source
// types hold no space, so the ref may hold anything.
// returns: write
MATCH (s:Source) WHERE s.key IS NULL
SET s.key = s.agent + ' ' + s.type + ' ' + s.ref
