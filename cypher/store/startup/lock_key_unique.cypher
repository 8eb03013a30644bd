// The key of start-up's lock node is unique, so processes starting together on a new graph meet at
// one node (graph/store/schema.py: applying_alone).
// returns: write
CREATE CONSTRAINT credence_startup_key_unique IF NOT EXISTS FOR (s:CredenceStartup) REQUIRE s.key IS UNIQUE
