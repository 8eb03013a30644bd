// One EntityAlias per (agent, name key): a known alias resolves to one entity only.
// returns: write
CREATE CONSTRAINT entity_alias_key_unique IF NOT EXISTS FOR (a:EntityAlias) REQUIRE a.key IS UNIQUE
