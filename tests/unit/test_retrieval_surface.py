"""Retrieval's public surface and the domain's own input rules for retrieval and context, pure:
the Visibility record, score(), check_query and check_context. A caller of graph/ that is not the
HTTP API (a worker, a pipeline, an intent router) gets InvalidInput naming the field."""
from __future__ import annotations

import ast
import dataclasses
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from api.schemas.context import ContextRequest
from api.schemas.search import AdminSearchRequest, SearchManyRequest, SearchRequest
from graph.context import MAX_MEMORIES, MAX_TOKENS, ContextQuery, check_context
from graph.core.errors import InvalidInput
from graph.links.expansion import Expand
from graph.retrieval import (
    MAX_AGENTS,
    MAX_FILTER_TAGS,
    MAX_LIMIT,
    MAX_QUERY_CHARS,
    MAX_SEARCHES,
    MAX_SESSION_CHARS,
    Evidence,
    SearchQuery,
    Visibility,
    Weights,
    check_query,
    score,
)
from graph.retrieval.fusion import fuse
from graph.retrieval.rerank import composite, signals
from graph.store.registry import QueryRegistry

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
JAN, FEB = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)


@dataclasses.dataclass(frozen=True)
class Facts:
    confidence: float = 0.8
    importance: float = 0.6
    updated_at: datetime = NOW - timedelta(days=30)
    event_at: datetime | None = None


def query(**changes) -> SearchQuery:
    return SearchQuery(**{"agent": "agent-1", "text": "where does the user live", **changes})


# Visibility: the filter of one request, typed and frozen.

def test_visibility_gives_exactly_the_parameters_of_the_filter_block():
    hydrate = QueryRegistry()["retrieval/hydrate"]
    assert set(Visibility.of(query()).params()) == hydrate.params - {"ids", "embedding"}


def test_visibility_is_frozen_and_built_from_the_query():
    q = query(memory_types=["fact"], tags=["home"], session_id="s1", known_at=FEB, created_after=JAN, explain=True)
    shown = Visibility.of(q)
    with pytest.raises(dataclasses.FrozenInstanceError):
        shown.agent = "someone-else"  # type: ignore[misc]
    params = shown.params()
    assert (params["agent"], params["memory_types"], params["tags"], params["session_id"]) == \
        ("agent-1", ["fact"], ["home"], "s1")
    assert params["as_of"] == params["known_at"] == "2026-02-01T00:00:00Z"  # as_of defaults to known_at
    assert params["created_after"] == "2026-01-01T00:00:00Z" and params["created_before"] is None
    assert params["explain"] is True and shown.params(explain=False)["explain"] is False
    assert Visibility.of(q, explain=False).explain is False
    assert shown.key == ("agent-1", ("active", "superseded"))


def test_time_travel_over_active_beliefs_reads_superseded_ones_too():
    assert Visibility.of(query(as_of=JAN)).statuses == ("active", "superseded")
    assert Visibility.of(query(as_of=JAN)).history is True
    shown = Visibility.of(query(as_of=JAN, statuses=("active", "superseded")))
    assert shown.statuses == ("active", "superseded") and shown.history is False
    now = Visibility.of(query())
    assert now.statuses == ("active",) and now.history is False and now.as_of.tzinfo is not None
    assert Visibility.of(query(memory_types=None)).params()["memory_types"] is None


# score(): one home for fuse -> signals -> composite.

def test_score_is_the_fusion_weighed_by_the_rerank():
    facts, weights = Facts(event_at=NOW - timedelta(days=400)), Weights(relevance=0.5)
    evidence = Evidence(similarity=0.62, floor=0.3, bm25=7.5, coverage=0.5, keyword=0.4, terms=3)
    scored = score("hybrid", evidence, facts, weights, NOW)
    fused = fuse("hybrid", 0.62, 0.3, 7.5, 0.5, 0.4, 3)
    expected = signals(fused.relevance, facts.confidence, facts.updated_at, facts.importance, NOW, facts.event_at)
    assert (scored.relevance, scored.match, scored.signals) == (fused.relevance, fused.match, expected)
    assert scored.composite == composite(expected, weights)


def test_a_keyword_only_candidate_is_scored_at_the_pools_floor():
    scored = score("hybrid", Evidence(similarity=None, floor=0.35, bm25=4.0, coverage=1.0, keyword=1.0, terms=2),
                   Facts(), Weights(), NOW)
    assert scored.relevance == fuse("hybrid", None, 0.35, 4.0, 1.0, 1.0, 2).relevance
    assert scored.match == 1.0


def test_a_memory_known_by_its_cosine_alone_is_on_the_vector_fits_scale_in_keyword_mode():
    """What link expansion reaches has no keyword evidence: in keyword mode its cosine is read by
    the vector fit, not by a keyword fit with nothing to weigh (which gives every one the same)."""
    for cosine in (0.2, 0.7):
        by_keyword_mode = score("keyword", Evidence(cosine), Facts(), Weights(), NOW)
        assert by_keyword_mode == score("vector", Evidence(cosine), Facts(), Weights(), NOW)
        assert by_keyword_mode.relevance == fuse("vector", cosine, 0.0, None, 0.0, None).relevance
    assert score("hybrid", Evidence(0.7), Facts(), Weights(), NOW).relevance == \
        fuse("hybrid", 0.7, 0.0, None, 0.0, None).relevance


def test_score_refuses_an_unknown_mode():
    with pytest.raises(InvalidInput) as refused:
        score("fuzzy", Evidence(0.5), Facts(), Weights(), NOW)
    assert refused.value.field == "mode"


# check_query: every public RetrievalService method applies it.

@pytest.mark.parametrize("changes, field", [
    ({"mode": "fuzzy"}, "mode"),
    ({"mode": None}, "mode"),
    ({"agent": ""}, "agent"),
    ({"agent": "has space"}, "agent"),
    ({"text": "   "}, "query"),
    ({"text": None}, "query"),
    ({"text": "x" * (MAX_QUERY_CHARS + 1)}, "query"),
    ({"text": "caf\udce9"}, "query"),
    ({"limit": 0}, "limit"),
    ({"limit": MAX_LIMIT + 1}, "limit"),
    ({"limit": True}, "limit"),
    ({"limit": 10.0}, "limit"),
    ({"limit": "10"}, "limit"),
    ({"min_similarity": -0.1}, "min_similarity"),
    ({"min_similarity": 1.5}, "min_similarity"),
    ({"min_similarity": math.nan}, "min_similarity"),
    ({"min_similarity": "0.5"}, "min_similarity"),
    ({"min_similarity": True}, "min_similarity"),
    ({"statuses": ()}, "statuses"),
    ({"statuses": "active"}, "statuses"),
    ({"statuses": ("active", "alive")}, "statuses[1]"),
    ({"memory_types": ()}, "memory_types"),
    ({"memory_types": ("gossip",)}, "memory_types[0]"),
    ({"tags": "home"}, "tags"),
    ({"tags": ("",)}, "tags[0]"),
    ({"tags": (7,)}, "tags[0]"),
    ({"tags": tuple(f"t{i}" for i in range(MAX_FILTER_TAGS + 1))}, "tags"),
    ({"session_id": "s" * (MAX_SESSION_CHARS + 1)}, "session_id"),
    ({"session_id": 5}, "session_id"),
    ({"as_of": "yesterday"}, "as_of"),
    ({"known_at": "2026-01-01"}, "known_at"),
    ({"created_after": FEB, "created_before": JAN}, "after"),
    ({"created_after": JAN, "created_before": JAN}, "after"),
    ({"event_after": FEB, "event_before": JAN}, "after"),
    ({"event_before": "soon"}, "before"),
    ({"rerank": {"relevance": 1.0}}, "rerank"),
    ({"rerank": True}, "rerank"),
    ({"explain": "yes"}, "explain"),
    ({"track_access": None}, "track_access"),
    ({"expand": 1}, "expand"),
    ({"expand": Expand(depth=9)}, "expand.depth"),
])
def test_check_query_refuses_input_outside_the_rules(changes, field):
    with pytest.raises(InvalidInput) as refused:
        check_query(query(**changes))
    assert refused.value.field == field


def test_check_query_refuses_what_is_not_a_search_query():
    with pytest.raises(InvalidInput) as refused:
        check_query({"agent": "agent-1", "text": "x"})  # type: ignore[arg-type]
    assert refused.value.field == "query"


@pytest.mark.parametrize("changes", [
    {}, {"limit": 1}, {"limit": MAX_LIMIT}, {"min_similarity": 0}, {"min_similarity": 1.0}, {"mode": "keyword"},
    {"statuses": ("active", "superseded", "disputed", "quarantined", "archived")}, {"memory_types": ["fact"]},
    {"tags": ("a",) * MAX_FILTER_TAGS}, {"session_id": ""}, {"created_after": JAN, "created_before": FEB},
    {"event_after": JAN, "created_before": JAN}, {"rerank": None}, {"rerank": Weights(relevance=0.0)},
    {"text": "x" * MAX_QUERY_CHARS}, {"expand": Expand(depth=3)},
])
def test_check_query_accepts_what_the_api_accepts(changes):
    q = query(**changes)
    assert check_query(q) is q


def test_rerank_weights_are_checked_where_they_are_made():
    with pytest.raises(InvalidInput) as refused:
        Weights(relevance=-1.0)
    assert refused.value.field == "rerank.relevance"


# check_context: ContextService.context applies it before the search's own rules.

@pytest.mark.parametrize("changes, field", [
    ({"max_memories": 0}, "max_memories"),
    ({"max_memories": MAX_MEMORIES + 1}, "max_memories"),
    ({"max_memories": True}, "max_memories"),
    ({"max_memories": "15"}, "max_memories"),
    ({"max_tokens": 0}, "max_tokens"),
    ({"max_tokens": MAX_TOKENS + 1}, "max_tokens"),
    ({"max_tokens": 100.0}, "max_tokens"),
    ({"expand": None}, "expand"),
    ({"expand": Expand(depth=1, direction="sideways")}, "expand.direction"),
    ({"search": "where does the user live"}, "search"),
])
def test_check_context_refuses_input_outside_the_rules(changes, field):
    with pytest.raises(InvalidInput) as refused:
        check_context(ContextQuery(**{"search": query(), **changes}))
    assert refused.value.field == field


def test_check_context_accepts_its_bounds():
    for changes in ({}, {"max_memories": 1, "max_tokens": 1}, {"max_memories": MAX_MEMORIES, "max_tokens": MAX_TOKENS}):
        q = ContextQuery(search=query(), **changes)
        assert check_context(q) is q


# One home for the numbers: the API's request models take their bounds from the domain.

def test_the_api_takes_its_search_and_context_bounds_from_the_domain():
    search = SearchRequest.model_json_schema()["properties"]
    assert search["limit"]["maximum"] == MAX_LIMIT
    assert search["query"]["maxLength"] == MAX_QUERY_CHARS
    assert search["tags"]["maxItems"] == MAX_FILTER_TAGS
    assert SearchManyRequest.model_json_schema()["properties"]["searches"]["maxItems"] == MAX_SEARCHES
    assert AdminSearchRequest.model_json_schema()["properties"]["agents"]["maxItems"] == MAX_AGENTS
    context = ContextRequest.model_json_schema()["properties"]
    assert context["max_memories"]["maximum"] == MAX_MEMORIES
    assert context["max_tokens"]["anyOf"][0]["maximum"] == MAX_TOKENS


def test_context_uses_only_retrievals_public_surface():
    """graph/context imports retrieval as a package (graph/retrieval/__init__.py), never its modules."""
    for path in sorted((ROOT / "graph" / "context").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("graph.retrieval"):
                assert node.module == "graph.retrieval", f"{path.name} imports {node.module}"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("graph.retrieval.") for a in node.names), path.name
