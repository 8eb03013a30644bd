// The memories behind candidate ids, with the claim they assert, their cosine to the query (the
// backend's vector.similarity.cosine, calibrated by the caller) and who superseded them. Ids of other
// tenants match nothing. Run by RetrievalService.hydrate only, always with $explain false (the
// search's results, and the memories context's link expansion reached), so what the filter hides
// never comes back; with $explain true it would, with its `reason`.
// params: ids, embedding, agent, statuses, sensitivities, session_id, as_of, known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, exclude_patterns, explain
// returns: many
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
WITH m, CASE
  // include: retrieval/visibility
END AS reason
WHERE reason IS NULL OR $explain
RETURN m {.*, embedding: null} AS memory, reason, [(m)-[:ASSERTS]->(c:Claim) | c {.*}][0] AS claim,
       vector.similarity.cosine(m.embedding, $embedding) AS similarity,
       // Start the pattern at the bound m: starting at n makes ArcadeDB scan the tenant per row.
       [(m)<-[:SUPERSEDES]-(n:Memory) WHERE n.agent = $agent | n.id][0] AS superseded_by
