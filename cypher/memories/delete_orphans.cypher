// Hard delete, step 3 (repeated until it deletes nothing): nodes from step 1 that nothing
// points to any more, i.e. that only the deleted memory referenced.
// params: agent, element_ids
// returns: scalar
UNWIND $element_ids AS eid
MATCH (n)
WHERE elementId(n) = eid AND n.agent = $agent AND NOT EXISTS { (n)<--() }
DETACH DELETE n
RETURN count(*) AS deleted
