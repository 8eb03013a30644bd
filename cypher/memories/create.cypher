// Stores new memories of one tenant, one row each, in the caller's transaction: each linked to its
// provenance source, and one that carries a claim (decided by graph/beliefs/engine.py) with its
// claim, the claim's subject (and, when it names a thing, its value) as browsable entities, and the
// typed relation the claim evidences. Timestamps arrive as UTC ISO-8601 strings (a tz-aware driver
// datetime would be stored naive on ArcadeDB).
// The rows arrive inside one map, `write`, so their number does not key the plan (docs/backends.md 2.23).
// params: agent, write
// returns: many
UNWIND $write.rows AS row
WITH row, row.props AS props
CREATE (m:Memory)
// One SET of one map: on ArcadeDB, eleven SET items were this statement's largest step, and the
// statement took a third longer than with one map (docs/benchmarks.md, ingest_search).
SET m = props {.*,
    agent: $agent,
    created_at: datetime(row.created_at),
    updated_at: datetime(row.created_at),
    event_at: datetime(row.event_at),
    effective_from: datetime(row.effective_from),
    expires_at: datetime(row.expires_at),
    // The claim's validity window, denormalised so search can filter by as_of without a hop.
    valid_from: datetime(row.valid_from),
    valid_until: datetime(row.valid_until),
    quarantined_at: CASE WHEN props.status = 'quarantined' THEN datetime(row.created_at) END,
    // A belief written as history (an older state than its slot's present) left the present at once.
    superseded_at: CASE WHEN props.status = 'superseded' THEN datetime(row.created_at) END}
// Sources are keyed (graph/core/keys.py) under a uniqueness constraint: parallel writers share one.
MERGE (s:Source {key: row.source_key})
ON CREATE SET s.agent = $agent, s.type = row.props.source_type, s.ref = row.source_ref
CREATE (m)-[:FROM {at: datetime(row.created_at)}]->(s)
WITH m, row
CALL (m, row) {
  UNWIND CASE WHEN row.claim IS NULL THEN [] ELSE [row.claim] END AS claim
  CREATE (m)-[:ASSERTS]->(c:Claim)
  SET c = claim.props, c.agent = $agent,
      c.valid_from = datetime(claim.props.valid_from), c.valid_until = datetime(claim.props.valid_until)
  // Entities are keyed (graph/core/keys.py) under a uniqueness constraint: parallel claims share
  // one. The engine resolved known aliases to the key of their entity (graph/entities/claims.py).
  MERGE (se:Entity {key: claim.subject.key})
  ON CREATE SET se.agent = $agent, se.name = claim.subject.name, se.name_key = claim.subject.name_key,
                se.id = claim.subject.id, se.kind = claim.subject.kind, se.aliases = [],
                se.created_at = datetime(row.created_at)
  ON MATCH SET se.kind = CASE WHEN coalesce(se.kind, 'other') = 'other' THEN claim.subject.kind ELSE se.kind END
  CREATE (c)-[:ABOUT {role: 'subject'}]->(se)
  WITH m, row, c, claim, se
  CALL (m, row, c, claim, se) {
    UNWIND CASE WHEN claim.value IS NULL THEN [] ELSE [claim.value] END AS v
    MERGE (ve:Entity {key: v.key})
    ON CREATE SET ve.agent = $agent, ve.name = v.name, ve.name_key = v.name_key, ve.id = v.id, ve.kind = v.kind,
                  ve.aliases = [], ve.created_at = datetime(row.created_at)
    ON MATCH SET ve.kind = CASE WHEN coalesce(ve.kind, 'other') = 'other' THEN v.kind ELSE ve.kind END
    CREATE (c)-[:ABOUT {role: 'value'}]->(ve)
    WITH m, row, claim, se, ve
    // The relation is keyed (type, from, to) under a uniqueness constraint, so parallel writers share
    // one, and keeps every memory that evidences it. Its ends are the entities merged just above:
    // under concurrent writers ArcadeDB can MERGE onto an entity another transaction committed that
    // a fresh MATCH by property does not see yet (docs/backends.md 2.13).
    UNWIND CASE WHEN claim.relation IS NULL THEN [] ELSE [claim.relation] END AS rel
    MERGE (r:Relation {key: rel.key})
    ON CREATE SET r.agent = $agent, r.id = rel.id, r.type = rel.type, r.created_at = datetime(row.created_at)
    WITH m, row, r, CASE WHEN rel.reverse THEN ve ELSE se END AS a, CASE WHEN rel.reverse THEN se ELSE ve END AS b
    MERGE (r)-[:FROM]->(a)
    MERGE (r)-[:TO]->(b)
    CREATE (m)-[:EVIDENCES {at: datetime(row.created_at)}]->(r)
    RETURN count(*) AS evidenced
  }
  RETURN collect(c {.*}) AS claims
}
RETURN m {.*, embedding: null} AS memory, claims[0] AS claim
