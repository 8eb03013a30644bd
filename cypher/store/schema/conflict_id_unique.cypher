// Conflicts are addressed by id.
CREATE CONSTRAINT conflict_id_unique IF NOT EXISTS FOR (c:Conflict) REQUIRE c.id IS UNIQUE
