// The strongest relationships of a tenant at $now: the formula of graph/entities/strength.py
// (trust x (1 - 0.5^mentions) x 0.5^(days since the last mention / 180)), over the memories
// that evidence each relationship, quarantined ones left out.
// params: agent, now, limit
// returns: many
MATCH (r:Relation {agent: $agent})-[:FROM]->(a:Entity)
MATCH (r)-[:TO]->(b:Entity)
MATCH (m:Memory {agent: $agent})-[:EVIDENCES]->(r)
WHERE m.status <> 'quarantined'
WITH r, a, b, count(m) AS mentions, avg(m.trust) AS trust, max(m.created_at.epochMillis) AS last_seen
WITH r, a, b, mentions, trust,
     CASE WHEN datetime($now).epochMillis > last_seen
          THEN (datetime($now).epochMillis - last_seen) / 86400000.0 ELSE 0.0 END AS days
RETURN a.name AS source, r.type AS type, b.name AS target, mentions, trust,
       trust * (1 - 0.5 ^ mentions) * 0.5 ^ (days / 180.0) AS strength
ORDER BY strength DESC, source, target
LIMIT $limit
