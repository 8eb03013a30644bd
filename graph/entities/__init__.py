"""The entity graph: people, places, organisations and products per tenant, and the typed
relationships between them that claims evidence (docs/entities.md)."""
