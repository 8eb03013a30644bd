"""Credence's domain: memories as a Neo4j graph, the services that keep it, and their adapters."""
