// One registered schema per (agent, predicate).
// returns: write
CREATE CONSTRAINT predicate_schema_key_unique IF NOT EXISTS FOR (p:PredicateSchema) REQUIRE p.key IS UNIQUE
