// The active memories of the (subject, predicate) slots an ingested message's claims fill, with
// their claims, oldest first: what the ingestion decision weighs each claim against (one past its
// expires_at is no longer known).
// params: agent, slots, now
// returns: many
UNWIND $slots AS slot
MATCH (c:Claim {agent: $agent, subject: slot.subject, predicate: slot.predicate})<-[:ASSERTS]-(m:Memory {agent: $agent})
WHERE m.status = 'active' AND (m.expires_at IS NULL OR m.expires_at > datetime($now))
WITH DISTINCT m, c
ORDER BY m.created_at
RETURN m {.*, embedding: null} AS memory, c {.*} AS claim
