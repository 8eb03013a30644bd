// One Thread node per (agent, thread id): writers MERGE on this key (graph/core/keys.py: thread_key),
// so parallel writes that open the same conversation thread cannot make twins.
// returns: write
CREATE CONSTRAINT thread_key_unique IF NOT EXISTS FOR (t:Thread) REQUIRE t.key IS UNIQUE
