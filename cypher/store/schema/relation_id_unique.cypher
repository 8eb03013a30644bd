// Relations are addressed by id in API answers and merges.
// returns: write
CREATE CONSTRAINT relation_id_unique IF NOT EXISTS FOR (r:Relation) REQUIRE r.id IS UNIQUE
