// Export pages through a tenant's audit records oldest first by (at, id).
// returns: write
CREATE INDEX operation_agent_at IF NOT EXISTS FOR (o:Operation) ON (o.agent, o.at)
