// Listing pages through a tenant's memories newest first.
// returns: write
CREATE INDEX memory_agent_created IF NOT EXISTS FOR (m:Memory) ON (m.agent, m.created_at)
