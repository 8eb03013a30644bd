// Tenants with memories stored before memories carried their tenant token (graph/core/tenant_token.py),
// at most $limit of them: start-up gives those memories their token, so the tenant-keyed full-text
// index finds them. No row once every memory has one.
// params: limit
// returns: many
MATCH (m:Memory)
WHERE m.tenant_token IS NULL AND m.agent IS NOT NULL
RETURN DISTINCT m.agent AS agent
LIMIT $limit
