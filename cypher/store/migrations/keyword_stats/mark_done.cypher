// Every tenant's keyword statistics are counted: every write keeps them from now on.
// returns: write
MERGE (c:CredenceMeta {key: 'keyword_stats'})
ON CREATE SET c.created_at = datetime()
