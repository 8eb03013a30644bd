// Retrieval bookkeeping, batched: how often and when search returned each memory. It never
// touches updated_at or version, so reading a memory neither freshens its recency signal nor
// makes a client's expected_version stale. Each service process flushes its own counts, and two
// processes' flushes may commit in the other order than their clocks read: counts add, and the last
// access only moves forward.
// params: agent, hits, now
// returns: scalar
UNWIND $hits AS hit
MATCH (m:Memory {agent: $agent, id: hit.id})
SET m.access_count = coalesce(m.access_count, 0) + hit.n,
    m.last_accessed_at = CASE WHEN m.last_accessed_at > datetime($now) THEN m.last_accessed_at
                              ELSE datetime($now) END
RETURN count(m) AS updated
