// Neo4j only: the full-text (Lucene) index behind keyword search.
// returns: write
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS
FOR (m:Memory) ON EACH [m.text]
