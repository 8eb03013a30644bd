// Migration to keyed entities: claims about twins of one (agent, name) entity are re-linked to
// the first twin, keeping each link's role.
// returns: write
MATCH (e:Entity) WHERE e.key IS NULL
WITH e.agent AS agent, e.name AS name, collect(e) AS twins
WHERE size(twins) > 1
WITH head(twins) AS keep, tail(twins) AS others
UNWIND others AS other
MATCH (c:Claim)-[a:ABOUT]->(other)
CREATE (c)-[:ABOUT {role: a.role}]->(keep)
DELETE a
