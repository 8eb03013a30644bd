// Whether every memory has had its tenant token since start-up last gave them out (the marker
// mark_done writes), so later start-ups skip the scan for memories without one.
// returns: one
OPTIONAL MATCH (c:CredenceMeta {key: 'tenant_tokens'})
RETURN c IS NOT NULL AS done
