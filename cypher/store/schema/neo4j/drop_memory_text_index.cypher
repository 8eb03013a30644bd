// Neo4j only: the text-only full-text index of graphs made before tenant tokens, which
// memory_text_by_tenant replaces. A no-op on newer graphs.
// returns: write
DROP INDEX memory_text IF EXISTS
