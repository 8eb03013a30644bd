// Consolidation's snapshot of a tenant, a page at a time in id order: every active memory that has
// not expired, with what the rules read (graph/consolidation/snapshot.py): its kind, times, trust
// terms, sources and claim, and whether a digest already covers it. No text, no embedding.
// params: agent, now, after, limit
// returns: many
MATCH (m:Memory {agent: $agent, status: 'active'})
WHERE m.id > $after AND (m.expires_at IS NULL OR m.expires_at > datetime($now))
WITH m
ORDER BY m.id
LIMIT $limit
OPTIONAL MATCH (m)-[:ASSERTS]->(c:Claim)
RETURN m.id AS id, m.memory_type AS memory_type, m.category AS category, m.sensitivity AS sensitivity,
       m.historical AS historical, m.effective_from AS effective_from, m.event_at AS event_at,
       m.expires_at AS expires_at, m.created_at AS created_at, m.trust AS trust, m.source_type AS source_type,
       m.corroboration AS corroboration, m.reinforcements AS reinforcements, m.disputes AS disputes,
       m.tags AS tags, m.importance AS importance, m.embedding IS NOT NULL AS embedded,
       [(m)-[:FROM]->(s:Source) | {key: s.key, type: s.type, ref: s.ref}] AS sources,
       c {.subject, .predicate, .value, .normalized_value, .exclusive, .scope, .session_id, .valid_from,
          .valid_until} AS claim,
       EXISTS { (m)<-[:DIGEST_OF]-(:Memory {agent: $agent}) } AS digested
