// A tenant's memory preferences; no row: never set (the defaults apply).
// params: agent
// returns: optional
MATCH (p:MemoryPreferences {agent: $agent})
RETURN p {.*} AS preferences
