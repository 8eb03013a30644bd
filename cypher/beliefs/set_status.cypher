// Moves a memory to a new status. Leaving quarantine records how the quarantine ended; entering
// it records why. Returns the memory as it is now, with its claim.
// params: agent, memory_id, status, quarantine_reason, quarantine_details, quarantine_resolution, now
// returns: optional
MATCH (m:Memory {agent: $agent, id: $memory_id})
WITH m, m.status AS previous
SET m.status = $status, m.updated_at = datetime($now), m.version = m.version + 1,
    m.archived_at = CASE WHEN $status = 'archived' THEN datetime($now) ELSE m.archived_at END
FOREACH (_ IN CASE WHEN $status = 'quarantined' THEN [1] ELSE [] END |
  SET m.quarantine_reason = $quarantine_reason, m.quarantine_details = $quarantine_details,
      m.quarantined_at = datetime($now), m.quarantine_resolution = null, m.quarantine_resolved_at = null)
FOREACH (_ IN CASE WHEN previous = 'quarantined' AND $status <> 'quarantined' THEN [1] ELSE [] END |
  SET m.quarantine_resolution = $quarantine_resolution, m.quarantine_resolved_at = datetime($now))
WITH m, previous
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim)
RETURN previous, m {.*, embedding: null} AS memory, c {.*} AS claim
