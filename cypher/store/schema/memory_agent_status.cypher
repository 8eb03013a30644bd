// Every read filters by tenant and, by default, by status.
// returns: write
CREATE INDEX memory_agent_status IF NOT EXISTS FOR (m:Memory) ON (m.agent, m.status)
