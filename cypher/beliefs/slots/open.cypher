// Takes the write lock of each (agent, subject, predicate) slot a write touches, for the rest of
// the transaction, and reads what the write decides against: the predicate's schema, and the
// beliefs that can matter (graph/beliefs/slots.py): active exclusive ones of a single-valued
// predicate and the valid-time history they succeeded (rivals and timeline), and active ones whose
// normalised value is one the write may assert (duplicates). Concurrent writers of one slot queue
// on the lock (Neo4j) or fail and retry (ArcadeDB's MVCC); the reads follow the lock, so they see
// the slot as the last writer left it. Also: which of the write's entity name keys are known
// aliases, and of which entity.
// The lists arrive inside one map, `write`, so their sizes do not key the plan (docs/backends.md 2.23).
// params: agent, write, now
// returns: many
CALL () {
  UNWIND $write.entity_keys AS key
  MATCH (e:Entity {agent: $agent})-[:ALIAS]->(:EntityAlias {key: key})
  RETURN collect({key: key, entity_key: e.key}) AS aliases
}
UNWIND $write.slots AS slot
MERGE (s:BeliefSlot {key: slot.key})
ON CREATE SET s.agent = $agent, s.subject = slot.subject, s.predicate = slot.predicate
SET s.locked_at = datetime($now), s.writes = coalesce(s.writes, 0) + 1
WITH slot, aliases
// By its key (graph/core/keys.py), under a uniqueness constraint: an index seek, not a label scan.
OPTIONAL MATCH (p:PredicateSchema {key: slot.predicate_key, agent: $agent})
CALL (slot, p) {
  // From the claim: its (agent, subject, predicate) index finds the slot's claims.
  MATCH (c:Claim {agent: $agent, subject: slot.subject, predicate: slot.predicate})<-[:ASSERTS]-(m:Memory)
  WHERE m.agent = $agent AND m.status IN ['active', 'superseded']
    // An active memory past its expires_at has left the present: nothing is a duplicate or a rival of it.
    AND (m.status <> 'active' OR m.expires_at IS NULL OR m.expires_at > datetime($now))
    AND ((c.exclusive AND coalesce(p.cardinality, 'single') = 'single')
         OR (m.status = 'active' AND c.normalized_value IN slot.values))
  WITH m, c, EXISTS { MATCH (:Memory {agent: $agent})-[:SUPERSEDES {reason: 'newer_valid_time'}]->(m) } AS succeeded
  WHERE m.status = 'active' OR succeeded
  WITH m, c, succeeded
  ORDER BY m.created_at
  RETURN collect({id: m.id, status: m.status, succeeded: succeeded, source_type: m.source_type,
                  corroboration: m.corroboration, reinforcements: m.reinforcements, disputes: m.disputes,
                  created_at: m.created_at, event_at: m.event_at, normalized_value: c.normalized_value,
                  exclusive: c.exclusive, scope: c.scope, session_id: c.session_id, valid_from: c.valid_from,
                  valid_until: c.valid_until,
                  sources: [(m)-[:FROM]->(src:Source) | src.key]}) AS beliefs
}
RETURN slot.key AS key, p {.predicate, .cardinality, .conflict_policy, .normalize, .dedup_policy, .updated_at} AS schema,
       beliefs, aliases
