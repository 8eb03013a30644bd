// One Source node per (agent, type, ref): writers MERGE on this key, so parallel writes of a fresh
// tenant cannot make twins.
// returns: write
CREATE CONSTRAINT source_key_unique IF NOT EXISTS FOR (s:Source) REQUIRE s.key IS UNIQUE
