// Neo4j only: drops the full-text index over memories' whole words, which memory_stems_by_tenant
// replaces (keyword search matches stems). A no-op on newer graphs.
// returns: write
DROP INDEX memory_text_by_tenant IF EXISTS
