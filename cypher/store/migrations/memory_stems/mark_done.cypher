// Every memory has its stems: every write gives new ones theirs (memories/create, memories/update,
// the import).
// returns: write
MERGE (c:CredenceMeta {key: 'memory_stems'})
ON CREATE SET c.created_at = datetime()
