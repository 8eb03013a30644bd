// Counts one reinforcement or dispute on a memory and returns its trust terms before and after.
// The version bump first takes the node's write lock, so concurrent feedback never loses a count.
// params: agent, memory_id, reinforce, dispute
// returns: optional
MATCH (m:Memory {agent: $agent, id: $memory_id})
SET m.version = m.version + 1
WITH m, m.reinforcements AS reinforcements_before, m.disputes AS disputes_before, m.trust AS trust_before,
     m.status AS status_before
SET m.reinforcements = m.reinforcements + $reinforce, m.disputes = m.disputes + $dispute
RETURN m.source_type AS source_type, m.corroboration AS corroboration, m.reinforcements AS reinforcements,
       m.disputes AS disputes, m.created_at AS created_at, m.status AS status,
       reinforcements_before, disputes_before, trust_before, status_before
