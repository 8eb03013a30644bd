// Gives up to $limit of one tenant's memories that lack it the tenant's token; `set` < $limit means
// the tenant is done.
// params: agent, token, limit
// returns: scalar
MATCH (m:Memory {agent: $agent})
WHERE m.tenant_token IS NULL
WITH m LIMIT $limit
SET m.tenant_token = $token
RETURN count(m) AS set
