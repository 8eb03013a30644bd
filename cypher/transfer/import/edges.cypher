// Import: edges between a tenant's memories, idempotent. Every kind but SUPERSEDES exists once per
// pair and direction (as the service writes them); SUPERSEDES is keyed by its time as well, since
// one memory may supersede another more than once. An edge without a creator was made by the
// engine (SUPERSEDES, CONTRADICTS, DIGEST_OF, DUPLICATE_OF, NEXT) or by someone unknown.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (a:Memory {agent: $agent, id: row.from})
MATCH (b:Memory {agent: $agent, id: row.to})
WITH a, b, row, datetime(row.created_at) AS created_at, coalesce(row.created_by, 'unknown') AS by
FOREACH (_ IN CASE WHEN row.type = 'SUPPORTS' THEN [1] ELSE [] END |
  MERGE (a)-[r:SUPPORTS]->(b) ON CREATE SET r.created_at = created_at, r.created_by = by, r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'CAUSES' THEN [1] ELSE [] END |
  MERGE (a)-[r:CAUSES]->(b) ON CREATE SET r.created_at = created_at, r.created_by = by, r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'PROMOTED_FROM' THEN [1] ELSE [] END |
  MERGE (a)-[r:PROMOTED_FROM]->(b) ON CREATE SET r.created_at = created_at, r.created_by = by, r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'OUTCOME_OF' THEN [1] ELSE [] END |
  MERGE (a)-[r:OUTCOME_OF]->(b) ON CREATE SET r.created_at = created_at, r.created_by = by, r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'PROGRESS_ON' THEN [1] ELSE [] END |
  MERGE (a)-[r:PROGRESS_ON]->(b) ON CREATE SET r.created_at = created_at, r.created_by = by, r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'NEXT' THEN [1] ELSE [] END |
  MERGE (a)-[r:NEXT]->(b)
  ON CREATE SET r.created_at = created_at, r.created_by = coalesce(row.created_by, 'engine'), r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'DIGEST_OF' THEN [1] ELSE [] END |
  MERGE (a)-[r:DIGEST_OF]->(b)
  ON CREATE SET r.created_at = created_at, r.created_by = coalesce(row.created_by, 'engine'), r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'DUPLICATE_OF' THEN [1] ELSE [] END |
  MERGE (a)-[r:DUPLICATE_OF]->(b)
  ON CREATE SET r.created_at = created_at, r.created_by = coalesce(row.created_by, 'engine'), r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'SUPERSEDES' THEN [1] ELSE [] END |
  MERGE (a)-[r:SUPERSEDES {at: datetime(row.at)}]->(b)
  ON CREATE SET r.created_at = created_at, r.created_by = coalesce(row.created_by, 'engine'), r.note = row.note,
                r.reason = row.reason, r.new_trust = row.new_trust, r.old_trust = row.old_trust)
FOREACH (_ IN CASE WHEN row.type = 'CONTRADICTS' THEN [1] ELSE [] END |
  MERGE (a)-[r:CONTRADICTS]->(b)
  ON CREATE SET r.created_at = created_at, r.created_by = coalesce(row.created_by, 'engine'), r.note = row.note,
                r.conflict_id = row.conflict_id, r.reason = row.reason, r.resolved_at = datetime(row.resolved_at),
                r.resolution = row.resolution, r.resolved_by = row.resolved_by)
RETURN count(*) AS edges
