"""Memories: their records, storing, reading, changing and deleting them, access counts and audit."""
