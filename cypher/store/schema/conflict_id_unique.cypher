// Conflicts are addressed by id.
// returns: write
CREATE CONSTRAINT conflict_id_unique IF NOT EXISTS FOR (c:Conflict) REQUIRE c.id IS UNIQUE
