// Start-ups that raced each other on a new graph (before start-up took a lock across processes) could
// each record a mark such as 'tenant_tokens': twins that stop the uniqueness constraint on
// CredenceMeta's key from being created. One of each key is kept.
// returns: write
MATCH (c:CredenceMeta)
WITH c.key AS key, collect(c) AS twins
WHERE size(twins) > 1
UNWIND tail(twins) AS twin
DETACH DELETE twin
