// One entity of the tenant, with every relation it takes part in (current and historical) and
// the evidence of each. No row: no such entity in this tenant.
// params: agent, id
// returns: optional
MATCH (e:Entity {agent: $agent, id: $id})
OPTIONAL MATCH (e)<-[:FROM|TO]-(r:Relation {agent: $agent})
WITH e, collect(DISTINCT r) AS relations
RETURN e {.id, .name, .name_key, .kind, .aliases, .created_at,
          mentions: size([(e)<-[:ABOUT]-(c:Claim) | c])} AS entity,
       [r IN relations |
// include: entities/relation
       ] AS relations
