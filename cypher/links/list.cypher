// A memory's typed edges to other memories of its tenant, both directions. No row: unknown memory.
// params: agent, id
// returns: optional
MATCH (m:Memory {agent: $agent, id: $id})
RETURN [(m)-[r:SUPPORTS|CAUSES|SUPERSEDES]->(n:Memory {agent: $agent})
          | {type: type(r), direction: 'out', id: n.id, at: r.at, note: r.note, reason: r.reason}]
     + [(m)<-[r:SUPPORTS|CAUSES|SUPERSEDES]-(n:Memory {agent: $agent})
          | {type: type(r), direction: 'in', id: n.id, at: r.at, note: r.note, reason: r.reason}] AS links
