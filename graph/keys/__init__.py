"""Scoped API keys: who may call, with which role, for which agents."""
