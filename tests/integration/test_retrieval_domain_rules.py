"""Retrieval and context validate their own input: a caller of graph/ (a worker, a pipeline, an
intent router) gets InvalidInput naming the field, not a KeyError from deep inside the ranking.
Through the services on both backends, as tests/integration/test_memory_domain_rules.py does for
memories; and the public surface context uses (hydrate, score, the search's Visibility) at work."""
from __future__ import annotations

import time
from dataclasses import replace

import pytest

from graph.context import ContextQuery
from graph.core.errors import InvalidInput
from graph.links.expansion import Expand
from graph.memories.model import NewMemory
from graph.retrieval import MAX_AGENTS, MAX_SEARCHES, SearchQuery, Visibility


@pytest.fixture
def stored(services, run, agent):
    async def go():
        return (await services.writes.store(NewMemory(agent=agent, text="The user flies to Lisbon in June"))).memory
    return run(go)


def refused(run, fn, *args) -> str:
    with pytest.raises(InvalidInput) as caught:
        run(fn, *args)
    return caught.value.field


def test_an_unknown_search_mode_is_invalid_input_naming_mode(services, run, agent, stored):
    """It reached fusion's weights by mode and failed there with a KeyError."""
    query = SearchQuery(agent=agent, text="Lisbon flight", mode="fuzzy")
    assert refused(run, services.retrieval.search, query) == "mode"


@pytest.mark.parametrize("changes, field", [
    ({"limit": 0}, "limit"),
    ({"limit": 101}, "limit"),
    ({"min_similarity": 2.0}, "min_similarity"),
    ({"statuses": ("active", "alive")}, "statuses[1]"),
    ({"memory_types": ("gossip",)}, "memory_types[0]"),
    ({"rerank": {"relevance": 1.0}}, "rerank"),
    ({"created_after": "2026-01-01"}, "after"),
])
def test_search_refuses_input_outside_the_rules(services, run, agent, stored, changes, field):
    query = SearchQuery(agent=agent, text="Lisbon flight", **changes)
    assert refused(run, services.retrieval.search, query) == field


def test_a_search_window_that_ends_before_it_starts_is_refused(services, run, agent, stored):
    search = SearchQuery(agent=agent, text="Lisbon flight", created_after=stored.created_at,
                         created_before=stored.created_at)
    assert refused(run, services.retrieval.search, search) == "after"
    assert refused(run, services.retrieval.search, replace(search, created_before=None, event_after=stored.created_at,
                                                           event_before=stored.created_at)) == "after"


def test_search_refuses_an_embedding_of_another_dimension(services, run, agent, stored):
    async def go():
        await services.retrieval.search(SearchQuery(agent=agent, text="Lisbon flight"), [0.1, 0.2])
    assert refused(run, go) == "embedding"


def test_search_many_refuses_no_searches_too_many_and_names_the_bad_one(services, run, agent):
    good = SearchQuery(agent=agent, text="Lisbon flight")
    assert refused(run, services.retrieval.search_many, []) == "searches"
    assert refused(run, services.retrieval.search_many, [good] * (MAX_SEARCHES + 1)) == "searches"
    assert refused(run, services.retrieval.search_many, [good, replace(good, mode="fuzzy")]) == "searches[1].mode"


def test_search_agents_refuses_too_many_agents_and_bad_ones(services, run, agent):
    query = SearchQuery(agent=agent, text="Lisbon flight")
    many = [f"{agent}-{i}" for i in range(MAX_AGENTS + 1)]
    assert refused(run, services.retrieval.search_agents, query, many) == "agents"
    assert refused(run, services.retrieval.search_agents, query, [agent, "has space"]) == "agents[1]"
    assert refused(run, services.retrieval.search_agents, query, agent) == "agents"
    assert refused(run, services.retrieval.search_agents, replace(query, limit=0), [agent]) == "limit"


def test_embed_refuses_blank_text(services, run):
    assert refused(run, services.retrieval.embed, "  ") == "text"


def test_hydrate_refuses_bad_ids_embeddings_and_filters(services, run, agent, stored):
    shown = Visibility.of(SearchQuery(agent=agent, text="Lisbon flight"))
    embedding = run(services.retrieval.embed, "Lisbon flight")
    assert refused(run, services.retrieval.hydrate, stored.id, embedding, shown) == "ids"
    assert refused(run, services.retrieval.hydrate, [stored.id, 7], embedding, shown) == "ids"
    assert refused(run, services.retrieval.hydrate, [stored.id], embedding[:10], shown) == "embedding"
    assert refused(run, services.retrieval.hydrate, [stored.id], embedding, shown.params()) == "visibility"


def test_hydrate_loads_what_the_filter_shows_with_the_searchs_cosine(services, run, agent, stored, client):
    other = run(services.writes.store, NewMemory(agent=f"{agent}-other", text="The user flies to Lisbon in June"))
    archived = run(services.writes.store, NewMemory(agent=agent, text="The user flew to Porto last year"))
    client.delete(f"/v1/memories/{archived.memory.id}", params={"agent": agent})
    result = run(services.retrieval.search, SearchQuery(agent=agent, text="Lisbon flight", track_access=False))
    [hit] = result.hits
    seen = result.visibility
    assert (seen.agent, seen.statuses, seen.explain) == (agent, ("active",), False)

    embedding = run(services.retrieval.embed, "Lisbon flight")
    loaded = run(services.retrieval.hydrate, [stored.id, archived.memory.id, other.memory.id, "no-such-id"],
                 embedding, result.visibility)
    assert list(loaded) == [stored.id]  # archived is hidden, another tenant's id matches nothing
    assert loaded[stored.id].memory == hit.memory and loaded[stored.id].superseded_by is None
    assert loaded[stored.id].similarity == pytest.approx(hit.similarity, abs=1e-5)
    assert run(services.retrieval.hydrate, [], embedding, result.visibility) == {}


@pytest.mark.parametrize("changes, field", [
    ({"max_memories": 0}, "max_memories"),
    ({"max_memories": 51}, "max_memories"),
    ({"max_tokens": 0}, "max_tokens"),
    ({"expand": Expand(depth=4)}, "expand.depth"),
])
def test_context_refuses_input_outside_the_rules(services, run, agent, stored, changes, field):
    query = ContextQuery(search=SearchQuery(agent=agent, text="Lisbon flight"), **changes)
    assert refused(run, services.context.context, query) == field


def test_context_holds_its_search_to_retrievals_rules(services, run, agent, stored):
    for changes, field in (({"mode": "fuzzy"}, "mode"), ({"text": ""}, "query"), ({"statuses": ()}, "statuses")):
        query = ContextQuery(search=SearchQuery(**{"agent": agent, "text": "Lisbon flight", **changes}))
        assert refused(run, services.context.context, query) == field


def test_search_and_context_take_no_more_queries_than_before(services, run, agent, client, monkeypatch):
    """A small tenant's search is three statements (keyword scan, exact ranking, hydration);
    context adds one expansion and one hydration of what it reached, reusing the search's filter.
    Counted by statement name, this tenant's only (a background index warm-up may run beside), and
    not the agent's preferences: a read of its own, once per agent every few seconds (cached)."""
    probes = services.retrieval.plan_probes
    near = run(services.writes.store, NewMemory(agent=agent, text="The user flies to Lisbon on 3 June")).memory
    run(services.writes.store, NewMemory(agent=agent, text="The user booked a hotel in Lisbon"))
    far = run(services.writes.store, NewMemory(agent=agent, text="Sunscreen and a hat go in the bag")).memory
    link = client.post(f"/v1/memories/{near.id}/links", json={"agent": agent, "type": "CAUSES", "to": far.id})
    assert link.status_code in (200, 201), link.text

    # The plan probe searches a tenant once its writes pause for a second (graph/retrieval/service.py):
    # it runs first, and its round ends, so that only the searches below are counted.
    deadline = time.monotonic() + 30
    while (services.retrieval.plan_probes == probes or not services.retrieval._warming.done()) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert services.retrieval.plan_probes > probes

    names: list[str] = []
    for method in ("read", "read_one"):
        original = getattr(services.runner, method)

        async def counted(name, _original=original, **params):
            if params.get("agent") == agent and name != "preferences/get":
                names.append(name)
            return await _original(name, **params)
        monkeypatch.setattr(services.runner, method, counted)

    run(services.retrieval.search, SearchQuery(agent=agent, text="Lisbon flight date"))
    assert sorted(names) == ["retrieval/exact", "retrieval/hydrate", "retrieval/keyword_exact"]

    names.clear()
    result = run(services.context.context, ContextQuery(search=SearchQuery(agent=agent, text="Lisbon flight date"),
                                                        max_memories=1))
    assert sorted(names) == ["links/expand/depth_1", "retrieval/exact", "retrieval/hydrate", "retrieval/hydrate",
                             "retrieval/keyword_exact"]
    assert result.candidates[far.id].via == "CAUSES" and result.candidates[far.id].expanded_from == (near.id,)
