// One Relation per (type, from entity, to entity): writers MERGE on this key, so parallel claims
// evidence one relation instead of making twins.
// returns: write
CREATE CONSTRAINT relation_key_unique IF NOT EXISTS FOR (r:Relation) REQUIRE r.key IS UNIQUE
