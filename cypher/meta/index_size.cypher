// How many memories the vector index ranks, across tenants (a count, no tenant data): it caps
// how far a search may widen k.
MATCH (m:Memory)
RETURN count(m) AS total
