// One preferences node per tenant: concurrent PUTs MERGE onto it.
// returns: write
CREATE CONSTRAINT memory_preferences_agent_unique IF NOT EXISTS FOR (p:MemoryPreferences) REQUIRE p.agent IS UNIQUE
