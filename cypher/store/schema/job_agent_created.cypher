// A tenant's jobs are listed newest first.
// returns: write
CREATE INDEX job_agent_created IF NOT EXISTS FOR (j:Job) ON (j.agent, j.created_at)
