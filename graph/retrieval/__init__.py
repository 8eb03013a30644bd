"""Retrieval: vector and full-text candidates, fusion, rerank and explain.

The names below are the package's public surface: what other packages (context, an intent router,
workers and pipelines that call the domain directly) use. Each piece has one home behind it:

- `Visibility.of(query)`: the filter of one request, built once and passed to every read of it;
- `RetrievalService.search` / `search_many` / `search_agents`: hybrid search, returning a
  `SearchResult` that carries the `Visibility` it ran with;
- `RetrievalService.hydrate(ids, embedding, visibility)`: load memories for a query (claim,
  calibrated cosine, superseded_by) through that filter, as `Hydrated` by id;
- `RetrievalService.embed(text)`: the query embedding;
- `score(mode, evidence, memory, weights, now)`: one memory's fused relevance and four-signal
  composite (`Scored`), the same for a search candidate and a memory reached another way;
- `check_query`: the domain's rules for a `SearchQuery`, which every public method applies."""
from graph.retrieval.exclusion import MAX_EXCLUDED, MAX_EXCLUDED_CHARS
from graph.retrieval.model import (
                                   MAX_AGENTS,
                                   MAX_FILTER_TAGS,
                                   MAX_LIMIT,
                                   MAX_QUERY_CHARS,
                                   MAX_SEARCHES,
                                   MAX_SESSION_CHARS,
                                   Hydrated,
                                   SearchHit,
                                   SearchMeta,
                                   SearchQuery,
                                   SearchResult,
                                   check_query,
)
from graph.retrieval.rerank import Signals, Weights
from graph.retrieval.scoring import Evidence, Rankable, Scored, score
from graph.retrieval.service import RetrievalService
from graph.retrieval.visibility import Visibility

__all__ = ["MAX_AGENTS", "MAX_EXCLUDED", "MAX_EXCLUDED_CHARS",
           "MAX_FILTER_TAGS", "MAX_LIMIT", "MAX_QUERY_CHARS", "MAX_SEARCHES", "MAX_SESSION_CHARS",
           "Evidence", "Hydrated", "Rankable", "RetrievalService", "Scored", "SearchHit", "SearchMeta", "SearchQuery",
           "SearchResult", "Signals", "Visibility", "Weights", "check_query", "score"]
