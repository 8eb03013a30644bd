// Migration to keyed sources: memories linked to twins of one (agent, type, ref) source, left by
// parallel writers before the key constraint existed, are re-linked to the first twin.
// returns: write
MATCH (s:Source) WHERE s.key IS NULL
WITH s.agent AS agent, s.type AS type, s.ref AS ref, collect(s) AS twins
WHERE size(twins) > 1
WITH head(twins) AS keep, tail(twins) AS others
UNWIND others AS other
MATCH (m:Memory)-[f:FROM]->(other)
MERGE (m)-[g:FROM]->(keep)
ON CREATE SET g.at = f.at
DELETE f
