// Soft delete: the memory stays in the graph as archived, hidden from default reads.
// Archiving an archived memory changes nothing. It keeps the status it had, for a restore
// (maintenance/restore).
// params: agent, id, now
// returns: optional
MATCH (m:Memory {agent: $agent, id: $id})
// Write-lock the node before reading its status, so parallel archives count one version.
SET m.locking = true
REMOVE m.locking
WITH m, m.status AS previous
FOREACH (_ IN CASE WHEN previous <> 'archived' THEN [1] ELSE [] END |
  SET m.status = 'archived', m.archived_at = datetime($now), m.archived_from = previous, m.archived_reason = 'manual',
      m.updated_at = datetime($now), m.version = m.version + 1)
RETURN previous, m {.*, embedding: null} AS memory,
       [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] AS claim
