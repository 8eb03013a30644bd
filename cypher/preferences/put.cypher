// Sets a tenant's memory preferences, all of them (a PUT): one node per tenant, under the uniqueness
// constraint memory_preferences_agent_unique. The per-type maps travel as JSON text (a property
// holds no map). Returns what was there before, for the audit record, and what is there now.
// params: agent, props, now
// returns: one
OPTIONAL MATCH (old:MemoryPreferences {agent: $agent})
WITH old {.*} AS before
MERGE (p:MemoryPreferences {agent: $agent})
SET p += $props, p.updated_at = datetime($now), p.version = coalesce(p.version, 0) + 1
RETURN before, p {.*} AS preferences
