"""POST /v1/context (PRD v0.8 feature 5) and the links it expands along: the seed tests for
budget-aware context, the budget guarantee as a property, one-hop expansion, explain."""
from __future__ import annotations

import math
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.context.format import HEADER
from tests.helpers import assert_problem, store, store_many

QUERY = "what should I know about the user's travel plans"


def context(client, agent: str, query: str = QUERY, **options) -> dict:
    response = client.post("/v1/context", json={"agent": agent, "query": query, **options})
    assert response.status_code == 200, response.text
    return response.json()


def chars_per_four(text: str) -> int:
    return math.ceil(len(text) / 4)


def seed(client, agent: str) -> dict[str, dict]:
    """Ten memories of varying length and value, as in the PRD's test."""
    long_tail = " ".join(["It also mentioned several details about connections, lounges and seat maps."] * 6)
    memories = {
        "flight": store(client, agent, "The user flies to Lisbon on 3 June", importance=0.9,
                        provenance={"source": "user_explicit"}),
        "hotel": store(client, agent, "The user booked a hotel in Alfama for the Lisbon trip", importance=0.8),
        "visa": store(client, agent, "The user needs no visa for Portugal", importance=0.7),
        "pref": store(client, agent, "The user prefers window seats on flights", memory_type="preference"),
        "goal": store(client, agent, "The user wants to learn basic Portuguese before the trip", memory_type="goal"),
        "rambling": store(client, agent, f"A long travel newsletter the user skimmed about airports. {long_tail}",
                          importance=0.1),
    }
    for i in range(4):
        memories[f"other{i}"] = store(client, agent, f"Travel anecdote {i}: {long_tail}", importance=0.2)
    return memories


def test_a_budget_returns_fewer_memories_than_unlimited(client, agent):
    seed(client, agent)
    unlimited = context(client, agent)
    budgeted = context(client, agent, max_tokens=200)
    assert budgeted["included"] < unlimited["included"] == 10
    assert budgeted["token_estimate"] <= 200
    assert unlimited["excluded"] == 0 and unlimited["excluded_reasons"] == []


def test_high_value_short_memories_beat_low_value_long_ones(client, agent):
    memories = seed(client, agent)
    included = {m["id"] for m in context(client, agent, max_tokens=200)["memories"]}
    assert {memories["flight"]["id"], memories["hotel"]["id"], memories["visa"]["id"]} <= included
    assert memories["rambling"]["id"] not in included


def test_excluded_reasons_name_the_budget_and_the_value(client, agent):
    seed(client, agent)
    out = context(client, agent, max_tokens=200)
    assert out["excluded"] == len(out["excluded_reasons"]) > 0
    assert out["included"] + out["excluded"] == 10
    assert all(e["reason"] == "budget" and 0 < e["value"] <= 1 for e in out["excluded_reasons"])
    included = {m["id"] for m in out["memories"]}
    assert not included & {e["id"] for e in out["excluded_reasons"]}


def test_token_estimate_is_characters_over_four_of_the_whole_context(client, agent):
    seed(client, agent)
    for options in ({}, {"max_tokens": 150}, {"max_tokens": 5000}):
        out = context(client, agent, **options)
        assert out["token_estimate"] == chars_per_four(out["context"])
    assert context(client, agent, max_tokens=5)["context"] == ""  # not even the header fits


def test_without_a_budget_the_top_max_memories_grouped_by_type(client, agent):
    memories = seed(client, agent)
    out = context(client, agent, max_memories=3)
    assert out["included"] == 3 and out["excluded"] == 0
    text = out["context"]
    assert text.startswith(HEADER + "\n")
    values = [m["composite_score"] for m in out["memories"]]
    assert values == sorted(values, reverse=True)
    full = context(client, agent)["context"]
    positions = [full.index(h) for h in ("### Preferences", "### Goals", "### Facts")]
    assert positions == sorted(positions)
    assert f"- {memories['pref']['text']}" in full


def test_validity_windows_and_history_are_marked(client, agent):
    store(client, agent, "The user lives in Porto",
          claim={"subject": "user", "predicate": "lives_in", "value": "Porto"}, provenance={"source": "user_explicit"})
    store(client, agent, "The user lives in Lisbon", claim={"subject": "user", "predicate": "lives_in",
                                                             "value": "Lisbon"}, provenance={"source": "user_explicit"})
    store(client, agent, "The user works at a Lisbon startup", claim={
        "subject": "user", "predicate": "works_at", "value": "a Lisbon startup", "scope": "temporal",
        "valid_from": "2026-01-01T00:00:00Z", "valid_until": "2027-01-01T00:00:00Z"})
    default = context(client, agent, "where does the user live and work")["context"]
    assert "Porto" not in default  # superseded: never in a default context
    assert "- The user works at a Lisbon startup (valid 2026-01-01 to 2027-01-01)" in default
    history = context(client, agent, "where does the user live and work", include_superseded=True)["context"]
    assert "- The user lives in Porto (historical, superseded)" in history


def test_the_pool_expands_one_hop_along_links(client, agent):
    trip = store(client, agent, "The user is planning a trip to Lisbon in June")
    reason = store(client, agent, "Invoice 7731 was paid by bank transfer")  # nothing like the query
    effect = store(client, agent, "Quarterly report deadline moved to July")
    # Closer to the query than the two above, so they fill the rest of the pool of 2 x max_memories.
    store_many(client, agent, [f"Gardening note {i}: water the tomatoes before the trip" for i in range(40)])
    small = {"max_memories": 1, "max_tokens": 2000}  # a pool of 2, and room for everything in it
    assert {reason["id"], effect["id"]}.isdisjoint(
        m["id"] for m in context(client, agent, "Lisbon trip", **small)["memories"])

    link = client.post(f"/v1/memories/{reason['id']}/links", json={"agent": agent, "type": "CAUSES", "to": trip["id"]})
    assert link.status_code == 201, link.text
    [made] = link.json()["links"]
    assert (made["type"], made["direction"], made["id"], made["created_by"], made["note"]) == \
        ("CAUSES", "out", trip["id"], "api", None)
    assert made["at"]
    client.post(f"/v1/memories/{trip['id']}/links", json={"agent": agent, "type": "SUPPORTS", "to": effect["id"]})
    out = context(client, agent, "Lisbon trip", **small)
    by_id = {m["id"]: m for m in out["memories"]}
    assert by_id[reason["id"]]["via"] == "CAUSES" and by_id[reason["id"]]["expanded_from"] == [trip["id"]]
    assert by_id[effect["id"]]["via"] == "SUPPORTS"

    gone = client.delete(f"/v1/memories/{reason['id']}/links/CAUSES/{trip['id']}", params={"agent": agent})
    assert gone.status_code == 204
    assert reason["id"] not in {m["id"] for m in context(client, agent, "Lisbon trip", **small)["memories"]}
    assert_problem(client.delete(f"/v1/memories/{reason['id']}/links/CAUSES/{trip['id']}",
                                 params={"agent": agent}), 404)


def test_expansion_follows_supersedes_only_to_active_memories(client, agent):
    old = store(client, agent, "The team standup is at 9:00", claim={"subject": "standup", "predicate": "time_is",
                                                                      "value": "9:00"}, provenance={"source": "system"})
    new = store(client, agent, "Daily sync moved to half past ten", claim={"subject": "standup", "predicate": "time_is",
                                                                            "value": "10:30"},
                provenance={"source": "system"})
    assert new["superseded"] == [old["id"]]
    # Asked for history, the pool holds the old memory; its successor comes in along SUPERSEDES.
    out = context(client, agent, "team standup at 9:00", include_superseded=True, max_memories=1, max_tokens=2000)
    assert {m["id"] for m in out["memories"]} >= {new["id"]}
    # By default the new one is found, and SUPERSEDES never leads back to the old one.
    default = context(client, agent, "daily sync time")
    assert old["id"] not in {m["id"] for m in default["memories"]}


def test_links_stay_inside_one_tenant_and_reject_bad_input(client, agent):
    mine = store(client, agent, "A memory")
    theirs = store(client, f"{agent}-x", "Their memory")
    url = f"/v1/memories/{mine['id']}/links"
    assert_problem(client.post(url, json={"agent": agent, "type": "SUPPORTS", "to": theirs["id"]}), 404)
    assert_problem(client.post(url, json={"agent": agent, "type": "SUPPORTS", "to": mine["id"]}), 422, "to")
    assert_problem(client.post(url, json={"agent": agent, "type": "SUPERSEDES", "to": theirs["id"]}), 409)
    assert_problem(client.post(url, json={"agent": agent, "type": "LIKES", "to": theirs["id"]}), 422, "type")
    assert client.get(url, params={"agent": agent}).json()["links"] == []
    assert_problem(client.get(url, params={"agent": f"{agent}-x"}), 404)


def test_context_explain_carries_search_meta_and_packing(client, agent):
    seed(client, agent)
    out = context(client, agent, max_tokens=200, explain=True)
    packing = out["explain"]["packing"]
    assert packing["max_tokens"] == 200 and packing["token_estimate"] == out["token_estimate"]
    assert packing["included_ids"] and set(packing["included_ids"]) == {m["id"] for m in out["memories"]}
    assert packing["excluded"] == out["excluded_reasons"]
    assert out["explain"]["search_meta"]["counts"]["returned"] == 10
    assert context(client, agent, max_tokens=200)["explain"] is None


def test_bad_context_requests_get_422(client, agent):
    for body, field in (({"max_tokens": 0}, "max_tokens"), ({"max_memories": 51}, "max_memories"),
                        ({"max_tokens": "100"}, "max_tokens"), ({"query": ""}, "query")):
        assert_problem(client.post("/v1/context", json={"agent": agent, "query": QUERY, **body}), 422, field)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lengths=st.lists(st.integers(min_value=1, max_value=600), min_size=1, max_size=8),
       budget=st.integers(min_value=1, max_value=700))
def test_the_budget_is_never_exceeded(client, agent, lengths, budget):
    tenant = f"{agent}-{uuid.uuid4().hex[:12]}"  # a fresh tenant per example, replays included
    words = "trip budget hotel flight museum tram pastry river castle beach".split()
    texts = [" ".join(words[(i + j) % len(words)] for j in range(n))[:n] or "x" for i, n in enumerate(lengths)]
    store_many(client, tenant, texts)
    out = context(client, tenant, "trip budget", max_tokens=budget)
    assert out["token_estimate"] == chars_per_four(out["context"]) <= budget
    assert out["included"] + out["excluded"] == len(texts)
