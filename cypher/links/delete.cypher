// Removes one edge users may assert (SUPPORTS, CAUSES, PROMOTED_FROM, OUTCOME_OF, PROGRESS_ON) between
// two memories of one tenant. Edges the engine owns never match here.
// params: agent, from_id, to_id, type
// returns: scalar
MATCH (a:Memory {agent: $agent, id: $from_id})-[r:SUPPORTS|CAUSES|PROMOTED_FROM|OUTCOME_OF|PROGRESS_ON]->(b:Memory {agent: $agent, id: $to_id})
WHERE type(r) = $type
DELETE r
RETURN count(*) AS deleted
