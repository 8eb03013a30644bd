"""Context for a prompt: the pool, link expansion, formatting and budget packing."""
