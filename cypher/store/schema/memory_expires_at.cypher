// The expiry job finds expired memories, and the tenants that hold them, without reading the others.
// returns: write
CREATE INDEX memory_expires_at IF NOT EXISTS FOR (m:Memory) ON (m.expires_at)
