// Migration to entities keyed by normalised name (case, spaces): claims about twins that differ
// only so ("Acme", "ACME") are re-linked to the first twin, keeping each link's role. Names are
// normalised here as graph/entities/names.py does for spaces between words and case.
// returns: write
MATCH (e:Entity) WHERE e.name_key IS NULL
WITH e.agent AS agent,
     toLower(reduce(acc = '', w IN [w IN split(e.name, ' ') WHERE w <> ''] |
                    acc + CASE WHEN acc = '' THEN '' ELSE ' ' END + w)) AS name_key, collect(e) AS twins
WHERE size(twins) > 1
WITH head(twins) AS keep, tail(twins) AS others
UNWIND others AS other
MATCH (c:Claim)-[a:ABOUT]->(other)
CREATE (c)-[:ABOUT {role: a.role}]->(keep)
DELETE a
