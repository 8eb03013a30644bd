// Every memory has its tenant token: every write gives new ones theirs (memories/create, the import).
// returns: write
MERGE (c:CredenceMeta {key: 'tenant_tokens'})
ON CREATE SET c.created_at = datetime()
