// The audit trail of one memory, oldest first.
// params: agent, id
// returns: many
MATCH (o:Operation {agent: $agent})-[:TOUCHED]->(m:Memory {agent: $agent, id: $id})
RETURN o {.id, .op, .actor, .at, .before, .after} AS operation
ORDER BY o.at, o.id
