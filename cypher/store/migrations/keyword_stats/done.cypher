// Whether every tenant's keyword statistics have been counted since start-up last counted them (the
// marker mark_done writes); writes keep them from then on, so later start-ups skip the count.
// returns: one
OPTIONAL MATCH (c:CredenceMeta {key: 'keyword_stats'})
RETURN c IS NOT NULL AS done
