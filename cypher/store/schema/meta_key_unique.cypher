// One CredenceMeta node per key (e.g. the embedding model the vectors were made with).
// returns: write
CREATE CONSTRAINT credence_meta_key_unique IF NOT EXISTS FOR (c:CredenceMeta) REQUIRE c.key IS UNIQUE
