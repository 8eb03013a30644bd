"""Context for a prompt: the pool, link expansion, formatting and budget packing.

Public surface: `ContextService.context(ContextQuery) -> ContextResult`, the records, and the
request's rules (`check_context`, with its bounds)."""
from graph.context.model import MAX_MEMORIES, MAX_TOKENS, Candidate, ContextQuery, ContextResult, check_context
from graph.context.service import ContextService

__all__ = ["MAX_MEMORIES", "MAX_TOKENS", "Candidate", "ContextQuery", "ContextResult", "ContextService",
           "check_context"]
