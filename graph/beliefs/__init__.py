"""Beliefs: claims, trust, precedence, predicates, feedback, conflicts, quarantine and explain."""
