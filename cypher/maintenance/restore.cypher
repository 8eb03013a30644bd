// An operator's restore of an archived memory: back to $status (the status it was archived from,
// or quarantined when a current belief now rivals it), its expiry cleared when asked (a restored
// expired memory would only be archived again). Answers the memory as it is now, with its claim.
// params: agent, id, status, quarantine_reason, quarantine_details, clear_expiry, now
// returns: optional
MATCH (m:Memory {agent: $agent, id: $id})
WHERE m.status = 'archived'
SET m.status = $status, m.updated_at = datetime($now), m.version = m.version + 1,
    m.archived_at = null, m.archived_from = null, m.archived_reason = null
FOREACH (_ IN CASE WHEN $clear_expiry THEN [1] ELSE [] END | SET m.expires_at = null)
FOREACH (_ IN CASE WHEN $status = 'quarantined' THEN [1] ELSE [] END |
  SET m.quarantine_reason = $quarantine_reason, m.quarantine_details = $quarantine_details,
      m.quarantined_at = datetime($now), m.quarantine_resolution = null, m.quarantine_resolved_at = null)
WITH m
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim)
RETURN m {.*, embedding: null} AS memory, c {.*} AS claim
