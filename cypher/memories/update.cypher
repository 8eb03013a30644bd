// Applies a patch when the memory is at the expected version (or none is expected).
// `ok` false with a memory means a version conflict; no row means no such memory. `previous`
// holds the patchable fields as they were before the patch, for the audit record before state.
// The patched instants ($set_instants names them) arrive as ISO-8601 text in $instants (null clears).
// params: agent, id, expected_version, changes, set_instants, instants, now
// returns: optional
MATCH (m:Memory {agent: $agent, id: $id})
// Write-lock the node before reading its version: under read committed, a check made before the
// lock lets two writers that expected the same version both through (Neo4j).
SET m.locking = true
REMOVE m.locking
WITH m, m.version AS found_version, ($expected_version IS NULL OR m.version = $expected_version) AS ok,
     m {.text, .memory_type, .category, .importance, .tags, .event_at, .metadata, .sensitivity, .effective_from,
        .expires_at, .recurrence, .historical} AS previous
FOREACH (_ IN CASE WHEN ok THEN [1] ELSE [] END |
  SET m += $changes,
      m.event_at = CASE WHEN 'event_at' IN $set_instants THEN datetime($instants.event_at) ELSE m.event_at END,
      m.effective_from = CASE WHEN 'effective_from' IN $set_instants THEN datetime($instants.effective_from)
                              ELSE m.effective_from END,
      m.expires_at = CASE WHEN 'expires_at' IN $set_instants THEN datetime($instants.expires_at) ELSE m.expires_at END,
      m.updated_at = datetime($now),
      m.version = m.version + 1)
RETURN ok, found_version, previous, m {.*, embedding: null} AS memory,
       [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] AS claim
