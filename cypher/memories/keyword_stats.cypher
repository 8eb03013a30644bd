// What keyword search scores a tenant's memories against (retrieval/keyword_postings): how many
// memories the tenant has and how many words they hold, counted as keyword scoring counts them.
// $sign 1 adds the memories $ids (after an import wrote them), -1 takes them away (before they are
// deleted, or before their text changes, with 1 again after). memories/create counts new memories
// itself, in the same way. One node per tenant, under a
// uniqueness constraint on its agent; every write of the tenant updates it in its own transaction.
// params: agent, ids, sign
// returns: scalar
UNWIND $ids AS id
MATCH (m:Memory {agent: $agent, id: id})
WITH count(m) AS memories, sum(size(split(m.text, ' '))) AS words
MERGE (ks:KeywordStats {agent: $agent})
ON CREATE SET ks.memories = 0, ks.words = 0
SET ks.memories = ks.memories + $sign * memories, ks.words = ks.words + $sign * words
// A tenant without memories keeps no statistics (hard delete leaves nothing of it behind).
WITH ks, ks.memories AS left
FOREACH (_ IN CASE WHEN left <= 0 THEN [1] ELSE [] END | DELETE ks)
RETURN left AS memories
