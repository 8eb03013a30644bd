// Audit records are addressed by id.
// returns: write
CREATE CONSTRAINT operation_id_unique IF NOT EXISTS FOR (o:Operation) REQUIRE o.id IS UNIQUE
