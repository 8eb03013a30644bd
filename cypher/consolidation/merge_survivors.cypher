// Near-duplicates merged, step 3: each survivor takes the union of the group's tags, its highest
// importance, its most trusted source type and its latest expiry, recounts its sources, and answers
// its trust terms (the caller recomputes trust with graph/beliefs/trust.py).
// params: agent, now, rows
// returns: many
UNWIND $rows AS row
MATCH (s:Memory {agent: $agent, id: row.survivor})
SET s.tags = row.tags, s.importance = row.importance, s.source_type = row.source_type,
    s.expires_at = datetime(row.expires_at), s.updated_at = datetime($now), s.version = s.version + 1
SET s.corroboration = COUNT { (s)-[:FROM]->(:Source) }
RETURN s.id AS survivor, s.trust AS trust_before, s.source_type AS source_type, s.corroboration AS corroboration,
       s.reinforcements AS reinforcements, s.disputes AS disputes, s.created_at AS created_at
