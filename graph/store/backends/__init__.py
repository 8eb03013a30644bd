"""Graph backends: a Neo4j server (production), a local Neo4j 5.26 started from Maven artifacts, or an
embedded ArcadeDB speaking Bolt on loopback (docs/backends.md)."""
