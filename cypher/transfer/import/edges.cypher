// Import: edges between a tenant's memories, idempotent. SUPPORTS, CAUSES and CONTRADICTS exist once
// per pair and direction (as the service writes them); SUPERSEDES is keyed by its time as well,
// since one memory may supersede another more than once.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (a:Memory {agent: $agent, id: row.from})
MATCH (b:Memory {agent: $agent, id: row.to})
FOREACH (_ IN CASE WHEN row.type = 'SUPPORTS' THEN [1] ELSE [] END |
  MERGE (a)-[r:SUPPORTS]->(b) ON CREATE SET r.at = datetime(row.at), r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'CAUSES' THEN [1] ELSE [] END |
  MERGE (a)-[r:CAUSES]->(b) ON CREATE SET r.at = datetime(row.at), r.note = row.note)
FOREACH (_ IN CASE WHEN row.type = 'SUPERSEDES' THEN [1] ELSE [] END |
  MERGE (a)-[r:SUPERSEDES {at: datetime(row.at)}]->(b)
  ON CREATE SET r.reason = row.reason, r.new_trust = row.new_trust, r.old_trust = row.old_trust)
FOREACH (_ IN CASE WHEN row.type = 'CONTRADICTS' THEN [1] ELSE [] END |
  MERGE (a)-[:CONTRADICTS]->(b))
RETURN count(*) AS edges
