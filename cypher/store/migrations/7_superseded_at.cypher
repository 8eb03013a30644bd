// Record time for beliefs superseded before Credence kept it on the memory: when and why each left
// the present, from the SUPERSEDES edge that took it out (the earliest, if several).
// returns: write
MATCH (m:Memory) WHERE m.status = 'superseded' AND m.superseded_at IS NULL
OPTIONAL MATCH (:Memory)-[s:SUPERSEDES]->(m)
WITH m, s ORDER BY s.at
WITH m, collect(s)[0] AS first
SET m.superseded_at = coalesce(first.at, m.updated_at), m.superseded_reason = first.reason
