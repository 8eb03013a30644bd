// A key is found by the SHA-256 digest of its secret on every authenticated request: unique, and
// indexed by this constraint.
// returns: write
CREATE CONSTRAINT api_key_digest_unique IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.digest IS UNIQUE
