// One Schedule per name: the node each process locks to enqueue a period's job once.
// returns: write
CREATE CONSTRAINT schedule_name_unique IF NOT EXISTS FOR (s:Schedule) REQUIRE s.name IS UNIQUE
