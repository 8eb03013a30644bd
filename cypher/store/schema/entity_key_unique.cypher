// One Entity node per (agent, name): writers MERGE on this key, so parallel claims cannot make twins.
// returns: write
CREATE CONSTRAINT entity_key_unique IF NOT EXISTS FOR (e:Entity) REQUIRE e.key IS UNIQUE
