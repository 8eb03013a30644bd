// Near-duplicate candidates through the vector index, for a batch of a tenant's memories: each
// memory's embedding, which never leaves the database, asks the index for its global top $k. Kept
// are the tenant's other active memories at or above $min_score ((1 + cosine) / 2). The caller asks
// again with a larger $k for a memory whose page was full and still at or above $min_score at its
// end (`scanned` = $k and `lowest` >= $min_score): more may lie beyond it.
// params: agent, ids, k, min_score
// returns: many
UNWIND $ids AS pid
MATCH (p:Memory {agent: $agent, id: pid})
WHERE p.embedding IS NOT NULL
CALL (p) {
  CALL db.index.vector.queryNodes('memory_embedding', $k, p.embedding) YIELD node, score
  RETURN count(node) AS scanned, min(score) AS lowest,
         collect(CASE WHEN node.agent = $agent AND node.id <> p.id AND node.status = 'active'
                           AND score >= $min_score THEN {id: node.id, score: score} END) AS hits
}
RETURN p.id AS id, scanned, lowest, hits
