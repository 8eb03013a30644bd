// Hard delete: a belief slot goes with the last memory whose claim used it (it holds the subject
// text, which may name a person).
// params: agent, key
// returns: scalar
MATCH (s:BeliefSlot {key: $key, agent: $agent})
WHERE NOT EXISTS { MATCH (:Memory {agent: $agent, claim_key: $key}) }
DELETE s
RETURN count(*) AS dropped
