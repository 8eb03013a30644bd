// A memory's typed edges to other memories of its tenant, every kind, both directions. No row:
// unknown memory. `at` is the creation time (SUPERSEDES edges written before created_at existed
// keep theirs in `at`).
// params: agent, id
// returns: optional
MATCH (m:Memory {agent: $agent, id: $id})
RETURN [(m)-[r:CAUSES|SUPERSEDES|CONTRADICTS|SUPPORTS|PROMOTED_FROM|DIGEST_OF|OUTCOME_OF|PROGRESS_ON|DUPLICATE_OF|NEXT]->(n:Memory {agent: $agent})
          | {type: type(r), direction: 'out', id: n.id, at: coalesce(r.created_at, r.at), created_by: r.created_by,
             note: r.note, reason: r.reason, conflict_id: r.conflict_id, resolved_at: r.resolved_at,
             resolution: r.resolution}]
     + [(m)<-[r:CAUSES|SUPERSEDES|CONTRADICTS|SUPPORTS|PROMOTED_FROM|DIGEST_OF|OUTCOME_OF|PROGRESS_ON|DUPLICATE_OF|NEXT]-(n:Memory {agent: $agent})
          | {type: type(r), direction: 'in', id: n.id, at: coalesce(r.created_at, r.at), created_by: r.created_by,
             note: r.note, reason: r.reason, conflict_id: r.conflict_id, resolved_at: r.resolved_at,
             resolution: r.resolution}] AS links
