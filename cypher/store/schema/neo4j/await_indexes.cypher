// Neo4j populates new indexes in the background and answers queries on them with `51N63 index
// not ready` until then: start-up waits here after its DDL.
// params: seconds
// returns: write
CALL db.awaitIndexes($seconds)
