// Provenance sources are merged on (agent, type, ref).
// returns: write
CREATE INDEX source_agent_type_ref IF NOT EXISTS FOR (s:Source) ON (s.agent, s.type, s.ref)
