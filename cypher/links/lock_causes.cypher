// Takes the tenant's CAUSES write lock for the rest of the transaction: two links that would close
// a cycle together (a->b and b->a, or any longer ring) cannot both pass the cycle check unseen.
// params: key, agent, now
// returns: scalar
MERGE (l:LinkLock {key: $key})
ON CREATE SET l.agent = $agent
SET l.locked_at = datetime($now), l.writes = coalesce(l.writes, 0) + 1
RETURN l.writes AS writes
