// Entities are listed per tenant in name-key order.
// returns: write
CREATE INDEX entity_agent_name_key IF NOT EXISTS FOR (e:Entity) ON (e.agent, e.name_key)
