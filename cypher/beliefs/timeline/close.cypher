// Closes beliefs' validity windows where their successor starts (valid_until is exclusive) and
// sets their status: superseded once the window has ended, active while it is still the present.
// The memory's copy of the window moves with the claim's, since search filters on it.
// params: agent, rows, now
// returns: many
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.id})-[:ASSERTS]->(c:Claim {agent: $agent})
SET c.valid_until = datetime(row.valid_until), m.valid_until = datetime(row.valid_until), m.status = row.status,
    m.updated_at = datetime($now), m.version = m.version + 1
RETURN m.id AS id
