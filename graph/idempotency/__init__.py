"""Idempotency records: a retried write returns its first result instead of writing twice."""
