// One ApiKey node per issued key id (docs/operations.md, API keys and scopes).
// returns: write
CREATE CONSTRAINT api_key_id_unique IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE
