// What the tenant's memories say about an entity: every claim whose subject or value it is, with
// its memory (quarantined ones stay out). No row: no such entity in this tenant.
// params: agent, id
// returns: optional
MATCH (e:Entity {agent: $agent, id: $id})
OPTIONAL MATCH (e)<-[a:ABOUT]-(c:Claim)<-[:ASSERTS]-(m:Memory {agent: $agent})
WHERE m.status <> 'quarantined'
WITH e, m, c, a ORDER BY m.created_at
RETURN e.id AS id,
       [x IN collect(CASE WHEN m IS NULL THEN null ELSE {memory_id: m.id, text: m.text, status: m.status,
          trust: m.trust, created_at: m.created_at, role: a.role, subject: c.subject, predicate: c.predicate,
          value: c.value, start: coalesce(m.valid_from, m.created_at),
          end:
// include: entities/window_end
          } END)
        WHERE x IS NOT NULL] AS memories
