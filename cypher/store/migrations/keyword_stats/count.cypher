// Counts every tenant's keyword statistics (memories/keyword_stats) from its memories, for graphs
// written before they were kept: the number of memories and the words they hold, per tenant.
// returns: scalar
MATCH (m:Memory)
WHERE m.agent IS NOT NULL
WITH m.agent AS agent, count(m) AS memories, sum(size(split(m.text, ' '))) AS words
MERGE (ks:KeywordStats {agent: agent})
SET ks.memories = memories, ks.words = words
RETURN count(ks) AS tenants
