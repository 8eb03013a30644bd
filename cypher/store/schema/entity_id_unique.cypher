// Entities are addressed by id over the API (/v1/entities/{id}).
// returns: write
CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE
