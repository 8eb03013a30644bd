"""Typed edges between memories that users assert."""
