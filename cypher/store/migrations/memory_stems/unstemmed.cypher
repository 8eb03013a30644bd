// Up to $limit of one tenant's memories without stems, with their text, to be stemmed in Python
// (Cypher has no stemmer: graph/store/unstemmed.py).
// params: agent, limit
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE m.stems IS NULL
RETURN m.id AS id, m.text AS text
LIMIT $limit
