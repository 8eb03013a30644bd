// Up to $limit of one tenant's memories without stems, with their text, for start-up to stem
// (Cypher has no stemmer).
// params: agent, limit
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.stems IS NULL
RETURN m.id AS id, m.text AS text
LIMIT $limit
