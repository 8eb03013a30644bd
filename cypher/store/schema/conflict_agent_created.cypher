// Export pages through a tenant's conflicts oldest first by (created_at, id).
// returns: write
CREATE INDEX conflict_agent_created IF NOT EXISTS FOR (c:Conflict) ON (c.agent, c.created_at)
