// Pairs of a tenant's memories a conflict already links (a CONTRADICTS edge, whichever way and
// however it ended): consolidation does not record a second conflict for them. With $ids, only pairs
// with a memory among them (checked again under the slot locks before a conflict is recorded).
// params: agent, ids
// returns: many
MATCH (a:Memory {agent: $agent})-[:CONTRADICTS]->(b:Memory {agent: $agent})
WHERE $ids IS NULL OR a.id IN $ids OR b.id IN $ids
RETURN a.id AS a, b.id AS b
