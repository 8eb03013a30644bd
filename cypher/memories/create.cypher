// Stores new memories of one tenant, one row each, in the caller's transaction, each linked to
// its provenance source. Timestamps arrive as UTC ISO-8601 strings (a tz-aware driver datetime
// would be stored naive on ArcadeDB).
// params: agent, rows
// returns: many
UNWIND $rows AS row
CREATE (m:Memory)
SET m = row.props,
    m.agent = $agent,
    m.created_at = datetime(row.created_at),
    m.updated_at = datetime(row.created_at),
    m.event_at = datetime(row.event_at),
    // The claim's validity window, denormalised so search can filter by as_of without a hop.
    m.valid_from = datetime(row.valid_from),
    m.valid_until = datetime(row.valid_until),
    m.quarantined_at = CASE WHEN row.props.status = 'quarantined' THEN datetime(row.created_at) END,
    // A belief written as history (an older state than its slot's present) left the present at once.
    m.superseded_at = CASE WHEN row.props.status = 'superseded' THEN datetime(row.created_at) END
// Sources are keyed (agent, type, ref) under a uniqueness constraint: parallel writers share one.
MERGE (s:Source {key: $agent + ' ' + row.props.source_type + ' ' + row.source_ref})
ON CREATE SET s.agent = $agent, s.type = row.props.source_type, s.ref = row.source_ref
CREATE (m)-[:FROM {at: datetime(row.created_at)}]->(s)
RETURN m {.*, embedding: null} AS memory
