// A tenant's entities with how many claims name them, for consolidation's duplicate entities.
// params: agent
// returns: many
MATCH (e:Entity {agent: $agent})
RETURN e.id AS id, e.name AS name, coalesce(e.kind, 'other') AS kind, e.created_at AS created_at,
       COUNT { (e)<-[:ABOUT]-(:Claim {agent: $agent}) } AS mentions
