// How many of one tenant's memories have no stems: the stem job's total.
// params: agent
// returns: one
MATCH (m:Memory {agent: $agent})
WHERE m.stems IS NULL
RETURN count(m) AS unstemmed
