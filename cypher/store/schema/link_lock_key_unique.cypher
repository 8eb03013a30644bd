// One lock node per tenant and edge kind that must stay acyclic (CAUSES): its writers serialise on it.
// returns: write
CREATE CONSTRAINT link_lock_key_unique IF NOT EXISTS FOR (l:LinkLock) REQUIRE l.key IS UNIQUE
