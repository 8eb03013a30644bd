// Drops the valid-time SUPERSEDES edges into states that get a new successor: a late state spliced
// into the chain takes the place of the edge it cuts.
// params: agent, ids
// returns: scalar
MATCH (:Memory {agent: $agent})-[e:SUPERSEDES {reason: 'newer_valid_time'}]->(m:Memory {agent: $agent})
WHERE m.id IN $ids
DELETE e
RETURN count(*) AS removed
