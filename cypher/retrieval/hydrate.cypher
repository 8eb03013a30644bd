// The memories behind candidate ids, with the claim they assert, their cosine to the query (the
// backend's vector.similarity.cosine, calibrated by the caller) and who superseded them. Ids of other
// tenants match nothing. With $explain, memories the filters hide come back too, with `reason`;
// context expansion uses this to screen neighbours through the same filters as search.
// params: ids, embedding, agent, statuses, session_id, as_of, memory_types, tags, created_after, created_before, event_after, event_before, explain
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
WITH m, CASE
  // visibility:begin (the same in every search/ query; a test holds them equal)
  WHEN NOT m.status IN $statuses THEN m.status
  // Every test is null-safe: a WHEN that evaluates to null would let the memory through.
  WHEN m.session_id IS NOT NULL AND ($session_id IS NULL OR m.session_id <> $session_id) THEN 'scope_mismatch'
  WHEN $session_id IS NOT NULL AND m.session_id IS NULL AND m.claim_key IS NOT NULL
       AND EXISTS { MATCH (o:Memory {agent: $agent, status: 'active', session_id: $session_id, claim_key: m.claim_key}) }
    THEN 'scope_mismatch'
  WHEN (m.valid_from IS NOT NULL AND m.valid_from > datetime($as_of))
       OR (m.valid_until IS NOT NULL AND m.valid_until <= datetime($as_of)) THEN 'validity_mismatch'
  WHEN ($memory_types IS NOT NULL AND NOT m.memory_type IN $memory_types)
       OR NOT all(tag IN $tags WHERE tag IN coalesce(m.tags, []))
       OR ($created_after IS NOT NULL AND NOT m.created_at > datetime($created_after))
       OR ($created_before IS NOT NULL AND NOT m.created_at < datetime($created_before))
       OR ($event_after IS NOT NULL AND NOT coalesce(m.event_at > datetime($event_after), false))
       OR ($event_before IS NOT NULL AND NOT coalesce(m.event_at < datetime($event_before), false))
    THEN 'filtered'
  // visibility:end
END AS reason
WHERE reason IS NULL OR $explain
RETURN m {.*, embedding: null} AS memory, reason, [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] AS claim,
       vector.similarity.cosine(m.embedding, $embedding) AS similarity,
       // Start the pattern at the bound m: starting at n makes ArcadeDB scan the tenant per row.
       [(m)<-[:SUPERSEDES]-(n:Memory) WHERE n.agent = $agent | n.id][0] AS superseded_by
