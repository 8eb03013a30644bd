// Recent audit operations (50 newest).
// The tenant's 50 newest belief changes, who made them, and the memories each one touched.
// params: agent
// returns: many
MATCH (o:Operation {agent: $agent})
WITH o ORDER BY o.at DESC LIMIT 50
OPTIONAL MATCH (o)-[:TOUCHED]->(m:Memory)
WITH o, collect(m {.id, .text, .status}) AS memories
RETURN o.at AS at, o.op AS op, o.actor AS actor, memories, o.id AS operation
ORDER BY at DESC, operation
