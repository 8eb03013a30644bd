"""Context records: the request, the pool's candidates and the result, and the request's rules."""
from __future__ import annotations

from dataclasses import dataclass

from graph.context.packing import Packed
from graph.core.errors import InvalidInput
from graph.links.expansion import Expand, Related, check_expand
from graph.memories.model import Memory
from graph.retrieval import SearchMeta, SearchQuery

# The bounds of a context request, here and in the API's request model (api/schemas/context.py).
MAX_MEMORIES = 50  # without max_tokens: memories in the context; the search pool is twice this
MAX_TOKENS = 1_000_000  # the largest token budget


@dataclass(frozen=True)
class ContextQuery:
    search: SearchQuery  # its limit is ignored: the pool is always 2 x max_memories; its expand too
    max_memories: int = 15
    max_tokens: int | None = None
    expand: Expand = Expand(depth=1)


@dataclass(frozen=True)
class Candidate:
    memory: Memory
    value: float  # composite score
    via: str  # "search", or the edge kinds that brought it in (the last hop of each path)
    expanded_from: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()  # pool memories from search: what their edges reach
    related_truncated: bool = False  # they reached more than expand.limit; the nearest are listed


@dataclass(frozen=True)
class ContextResult:
    packed: Packed
    candidates: dict[str, Candidate]
    max_tokens: int | None  # the budget it was packed into: the request's, else the agent's default
    search_meta: SearchMeta | None
    past: bool = False  # the question asked how things were: the past was let in, in its own section


def check_context(query: ContextQuery) -> ContextQuery:
    """What context itself takes, as InvalidInput naming the API's field (the search inside it is
    held to retrieval's rules, check_query, once its limit is set from max_memories)."""
    if not isinstance(query, ContextQuery):
        raise InvalidInput("query", "must be a ContextQuery")
    if not isinstance(query.search, SearchQuery):
        raise InvalidInput("search", "must be a SearchQuery")
    _check_count(query.max_memories, "max_memories", MAX_MEMORIES)
    if query.max_tokens is not None:
        _check_count(query.max_tokens, "max_tokens", MAX_TOKENS)
    if not isinstance(query.expand, Expand):
        raise InvalidInput("expand", "must be an Expand")
    check_expand(query.expand)
    return query


def _check_count(value: object, field: str, most: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise InvalidInput(field, f"must be an integer from 1 to {most}")
