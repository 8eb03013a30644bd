// Memory ids are unique across tenants (uuid4), which also indexes look-ups by id.
// returns: write
CREATE CONSTRAINT memory_id_unique IF NOT EXISTS FOR (m:Memory) REQUIRE m.id IS UNIQUE
