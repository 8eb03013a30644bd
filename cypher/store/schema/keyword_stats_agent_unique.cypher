// One KeywordStats node per tenant (memories/keyword_stats): writers MERGE on the agent, so the
// first writes of a new tenant cannot make twins.
// returns: write
CREATE CONSTRAINT keyword_stats_agent_unique IF NOT EXISTS FOR (k:KeywordStats) REQUIRE k.agent IS UNIQUE
