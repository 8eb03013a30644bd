// Reads, under their slots' locks, the active memories a new memory explicitly succeeds (an
// ingestion decision: "we got married" succeeds the partner, a claimless change succeeds the memory
// it changes), as the belief engine weighs them: source, trust inputs, times, claim window. A
// memory with a claim takes its slot's lock, as every write to that slot does; one that is no
// longer active, or another tenant's, is not returned.
// params: agent, ids, now
// returns: many
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
WHERE m.status = 'active'
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim {agent: $agent})
FOREACH (claim IN CASE WHEN c IS NULL OR m.claim_key IS NULL THEN [] ELSE [c] END |
  MERGE (s:BeliefSlot {key: m.claim_key})
  ON CREATE SET s.agent = $agent, s.subject = claim.subject, s.predicate = claim.predicate
  SET s.locked_at = datetime($now), s.writes = coalesce(s.writes, 0) + 1)
RETURN m.id AS id, m.status AS status, false AS succeeded, m.source_type AS source_type,
       m.corroboration AS corroboration, m.reinforcements AS reinforcements, m.disputes AS disputes,
       m.created_at AS created_at, m.event_at AS event_at, coalesce(c.normalized_value, c.value, '') AS normalized_value,
       coalesce(c.exclusive, false) AS exclusive, coalesce(c.scope, 'global') AS scope, c.session_id AS session_id,
       c.valid_from AS valid_from, c.valid_until AS valid_until, [(m)-[:FROM]->(src:Source) | src.key] AS sources
