// Whether every memory has had its stems since start-up last gave them out (the marker mark_done
// writes), so later start-ups skip the scan for memories without them.
// returns: one
OPTIONAL MATCH (c:CredenceMeta {key: 'memory_stems'})
RETURN c IS NOT NULL AS done
