// Closes beliefs' validity windows where their successor starts (valid_until is exclusive) and
// sets their status: superseded once the window has ended, active while it is still the present.
// The memory's copy of the window moves with the claim's, since search filters on it. Record time
// for known_at: the first closure keeps the window's asserted end and when it was closed; leaving
// the present sets superseded_at and superseded_reason once.
// params: agent, rows, now
// returns: many
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.id})-[:ASSERTS]->(c:Claim {agent: $agent})
WITH m, c, row, m.closed_at IS NULL AND row.valid_until IS NOT NULL
                AND (m.valid_until IS NULL OR m.valid_until > datetime(row.valid_until)) AS first_closure,
     m.valid_until AS asserted
SET m.asserted_valid_until = CASE WHEN first_closure THEN asserted ELSE m.asserted_valid_until END,
    m.closed_at = CASE WHEN first_closure THEN datetime($now) ELSE m.closed_at END
SET c.valid_until = datetime(row.valid_until), m.valid_until = datetime(row.valid_until), m.status = row.status,
    m.updated_at = datetime($now), m.version = m.version + 1,
    m.superseded_at = CASE WHEN row.status = 'superseded' THEN coalesce(m.superseded_at, datetime($now)) END,
    m.superseded_reason = CASE WHEN row.status = 'superseded' THEN coalesce(m.superseded_reason, 'newer_valid_time') END
RETURN m.id AS id
