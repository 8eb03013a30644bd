"""Graph backends: a Neo4j server (production) or an embedded ArcadeDB speaking Bolt on loopback."""
