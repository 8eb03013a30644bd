// The active memories whose claims are about the entities a message names (by name key, and
// through known aliases), with their claims, oldest first: the people and things of the user's
// life the ingestion rules and decision need to know (one past its expires_at is no longer known).
// params: agent, name_keys, now
// returns: many
UNWIND $name_keys AS key
MATCH (e:Entity {agent: $agent, key: key})<-[:ABOUT]-(c:Claim {agent: $agent})<-[:ASSERTS]-(m:Memory {agent: $agent})
WHERE m.status = 'active' AND (m.expires_at IS NULL OR m.expires_at > datetime($now))
WITH DISTINCT m, c
ORDER BY m.created_at
RETURN m {.*, embedding: null} AS memory, c {.*} AS claim
