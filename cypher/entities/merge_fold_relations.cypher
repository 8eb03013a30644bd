// Merge, step 4: a relation of the entity that goes whose twin already exists at the one kept
// hands its evidence to the twin and goes; one that would join the kept entity to itself goes too
// (its memories stay). No evidence is lost that still relates two different entities.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (r:Relation {agent: $agent, id: row.id})
OPTIONAL MATCH (twin:Relation {agent: $agent, id: row.twin})
OPTIONAL MATCH (m:Memory {agent: $agent})-[ev:EVIDENCES]->(r)
FOREACH (_ IN CASE WHEN twin IS NULL OR m IS NULL THEN [] ELSE [1] END |
  CREATE (m)-[:EVIDENCES {at: ev.at}]->(twin))
WITH DISTINCT r
DETACH DELETE r
RETURN count(*) AS folded
