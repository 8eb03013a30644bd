"""The graph store: the one gateway, the Cypher registry, schema set-up and the backends."""
