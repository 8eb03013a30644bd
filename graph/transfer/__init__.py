"""Export and import of a tenant: the JSON Lines format, its pages and its batched, idempotent import."""
