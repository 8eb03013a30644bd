// Archives the memories the decay formula put below the floor, each write-locked and read again
// first: one used or changed since it was weighed (another version or access count) stays.
// params: agent, rows, now
// returns: many
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.id})
SET m.locking = true
REMOVE m.locking
WITH m, row, m.status AS previous
WHERE previous = 'active' AND m.version = row.version AND coalesce(m.access_count, 0) = row.access_count
SET m.status = 'archived', m.archived_from = previous, m.archived_reason = 'decayed', m.archived_at = datetime($now),
    m.updated_at = datetime($now), m.version = m.version + 1
RETURN m.id AS id, previous, m.importance AS importance, m.version AS version
