// Neo4j only: the full-text (Lucene) index behind keyword search, over each memory's stems
// (graph/language/stems.py: "hiking" finds "hike") and its tenant token (graph/core/tenant_token.py),
// so a query can ask for one tenant's matches.
// returns: write
CREATE FULLTEXT INDEX memory_stems_by_tenant IF NOT EXISTS
FOR (m:Memory) ON EACH [m.stems, m.tenant_token]
