// The shortest causal chain from one memory to another, if any: linking `to` CAUSES `from` on top
// of it would close a cycle. No row: no chain. Bounded, as the linter asks: a causal chain of more
// than 1,000 links is beyond this check.
// params: agent, from_id, to_id
// returns: optional
MATCH (a:Memory {agent: $agent, id: $from_id})
MATCH (b:Memory {agent: $agent, id: $to_id})
MATCH chain = shortestPath((a)-[:CAUSES*1..1000]->(b))
RETURN [m IN nodes(chain) | m.id] AS ids
