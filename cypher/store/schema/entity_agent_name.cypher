// Entities are merged on (agent, name) and browsed by name.
// returns: write
CREATE INDEX entity_agent_name IF NOT EXISTS FOR (e:Entity) ON (e.agent, e.name)
