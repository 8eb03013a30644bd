// Stores new memories of one tenant, one row each, in the caller's transaction. Timestamps
// arrive as UTC ISO-8601 strings (a tz-aware driver datetime would be stored naive on ArcadeDB).
// params: agent, rows
UNWIND $rows AS row
CREATE (m:Memory)
SET m = row.props,
    m.agent = $agent,
    m.created_at = datetime(row.created_at),
    m.updated_at = datetime(row.created_at),
    m.event_at = datetime(row.event_at)
RETURN m {.*, embedding: null} AS memory
