// Liveness of the graph backend: answers one row when the database can run queries.
// returns: scalar
RETURN 1 AS ok
