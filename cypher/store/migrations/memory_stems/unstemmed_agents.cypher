// Tenants with memories stored before memories carried their stems (graph/language/stems.py), at
// most $limit of them: start-up gives those memories their stems, so keyword search finds them. No
// row once every memory has them.
// params: limit
// returns: many
MATCH (m:Memory)
WHERE m.stems IS NULL AND m.agent IS NOT NULL
RETURN DISTINCT m.agent AS agent
LIMIT $limit
