"""GET/PUT /v1/preferences, and each preference doing what it says where it applies: store
(never-store types and topics, retention), search and ask (the sensitivity ceiling), context (the
default budget, per-type quotas, and the past only for a question about it); tenant isolation, bad
input, and the cache across processes."""
from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from graph.core.errors import InvalidInput
from graph.preferences import Preferences, PreferenceService
from tests.helpers import assert_problem, list_all, search, store


def put(client, agent: str, **prefs) -> dict:
    response = client.put("/v1/preferences", json={"agent": agent, **prefs})
    assert response.status_code == 200, response.text
    return response.json()


def test_preferences_start_at_their_defaults_and_a_put_replaces_them(client, agent, cypher):
    first = client.get("/v1/preferences", params={"agent": agent}).json()
    assert first["version"] == 0 and first["sensitivity_ceiling"] == "private" and first["never_store_types"] == []
    stored = put(client, agent, never_store_types=["event"], never_store_topics=["work meetings"],
                 sensitivity_ceiling="sensitive", context_max_tokens=300, type_quotas={"fact": 50},
                 retention_days={"event": 30}, extraction_instructions="Focus on my fitness goals",
                 ingest_by_default=True)
    assert stored["version"] == 1 and stored["type_quotas"] == {"fact": 50} and stored["ingest_by_default"]
    assert client.get("/v1/preferences", params={"agent": agent}).json() == stored
    again = put(client, agent, sensitivity_ceiling="normal")  # a PUT: what is left out takes its default
    assert again["version"] == 2 and again["never_store_types"] == [] and again["retention_days"] == {}
    # One node per tenant, and the change is audited.
    assert cypher("MATCH (p:MemoryPreferences {agent: $agent}) RETURN count(p) AS n", agent=agent) == [{"n": 1}]
    ops = client.get("/v1/audit", params={"agent": agent, "op": "preferences"}).json()["items"]
    assert len(ops) == 2 and ops[0]["after"]["sensitivity_ceiling"] == "normal"


def test_store_refuses_what_the_preferences_never_store_and_writes_nothing(client, agent):
    put(client, agent, never_store_types=["event"], never_store_topics=["work meeting", "salary"])
    assert_problem(client.post("/v1/memories", json={"agent": agent, "text": "Dinner on Friday",
                                                     "memory_type": "event"}), 422, "memory_type")
    assert_problem(client.post("/v1/memories", json={"agent": agent, "text": "Two Work Meetings on Monday"}),
                   422, "text")
    batch = client.post("/v1/memories:batch", json={"memories": [
        {"agent": agent, "text": "Likes tea"}, {"agent": agent, "text": "misc", "tags": ["salary"]}]})
    assert_problem(batch, 422, "memories[1].text")
    assert list_all(client, agent) == []  # the whole batch was refused
    store(client, agent, "A meeting room is booked")  # "meeting" alone is no topic of the list
    assert len(list_all(client, agent)) == 1


def test_retention_gives_new_memories_of_a_type_an_expiry(client, agent):
    put(client, agent, retention_days={"event": 30})
    event = store(client, agent, "Coffee with Ana", memory_type="event")
    expires = datetime.fromisoformat(event["expires_at"].replace("Z", "+00:00"))
    assert abs(expires - datetime.now(UTC) - timedelta(days=30)) < timedelta(minutes=5)
    told = store(client, agent, "Conference in Porto", memory_type="event", expires_at="2030-01-01T00:00:00Z")
    assert told["expires_at"].startswith("2030-01-01")  # what the memory says wins
    assert store(client, agent, "Ana's birthday is in May")["expires_at"] is None  # facts keep no retention


def test_the_agents_ceiling_caps_search_and_ask(client, agent):
    store(client, agent, "The user was diagnosed with asthma", sensitivity="sensitive")
    store(client, agent, "The user's asthma inhaler is blue")
    assert len(search(client, agent, "asthma")) == 2
    put(client, agent, sensitivity_ceiling="normal")
    # A request asking for more still gets no more than the agent allows.
    assert [r["text"] for r in search(client, agent, "asthma", sensitivity_ceiling="private")] == [
        "The user's asthma inhaler is blue"]
    answer = client.post("/v1/ask", json={"agent": agent, "question": "what do you know about me?",
                                          "sensitivity_ceiling": "private"}).json()
    assert [c["memory"]["text"] for c in answer["memories"]] == ["The user's asthma inhaler is blue"]
    assert any("capped at 'normal'" in r for r in answer["explain"]["reasons"])


def test_context_takes_the_default_budget_and_quotas_and_the_past_only_when_asked(client, agent):
    for i in range(6):
        store(client, agent, f"Fact {i}: the user keeps a travel journal about trip number {i}", importance=0.9)
    store(client, agent, "The user prefers aisle seats on long trips", memory_type="preference")
    store(client, agent, "The user used to travel by train every summer", historical=True)
    put(client, agent, context_max_tokens=80, type_quotas={"fact": 30})
    body = {"agent": agent, "query": "what should I know about the user's trips"}
    out = client.post("/v1/context", json=body).json()
    assert 0 < out["token_estimate"] <= 80
    facts = [m for m in out["memories"] if m["memory_type"] == "fact"]
    assert sum(math.ceil(len(m["text"]) / 4) for m in facts) <= 30 and len(facts) >= 1
    assert "used to travel" not in out["context"]  # the past stays out of a question about the present
    put(client, agent, context_max_tokens=400)  # no quota: the past competes for room with the present only
    past = client.post("/v1/context", json={**body, "query": "how did the user use to travel"})
    assert "### Historical\n- The user used to travel by train every summer (historical)" in past.json()["context"]
    tight = client.post("/v1/context", json={**body, "max_tokens": 40}).json()
    assert tight["token_estimate"] <= 40  # the request's budget wins over the default


def test_preferences_are_per_tenant(client, agent):
    other = f"{agent}-b"
    put(client, agent, never_store_types=["event"], sensitivity_ceiling="normal")
    store(client, other, "Dinner on Friday", memory_type="event")
    store(client, other, "The user was diagnosed with asthma", sensitivity="sensitive")
    assert "The user was diagnosed with asthma" in [r["text"] for r in search(client, other, "asthma")]
    assert client.get("/v1/preferences", params={"agent": other}).json()["version"] == 0


def test_bad_preferences_are_refused_naming_the_field(client, agent, run, services):
    for body, field in (({"never_store_types": ["gossip"]}, "never_store_types.0"),
                        ({"sensitivity_ceiling": "secret"}, "sensitivity_ceiling"),
                        ({"context_max_tokens": 0}, "context_max_tokens"),
                        ({"type_quotas": {"fact": -1}}, "type_quotas.fact"),
                        ({"retention_days": {"nonsense": 3}}, "retention_days.nonsense.[key]"),
                        ({"ingest_by_default": "yes"}, "ingest_by_default"),
                        ({"colour": "blue"}, "colour")):
        response = client.put("/v1/preferences", json={"agent": agent, **body})
        assert response.status_code == 422, (body, response.text)
        fields = {e["field"] for e in response.json().get("errors", [])}
        assert any(f.startswith(field.split(".")[0]) for f in fields), (body, fields)
    assert client.get("/v1/preferences", params={"agent": agent}).json()["version"] == 0
    with pytest.raises(InvalidInput) as caught:  # the domain holds the rules for direct callers
        run(services.preferences.put, Preferences(agent=agent, type_quotas={"fact": 0}))
    assert caught.value.field == "type_quotas.fact"


def test_another_process_sees_a_change_within_its_cache_interval(client, agent, run, services):
    """Two services on one graph: each caches for its interval; with 0 a change is seen at once."""
    elsewhere = PreferenceService(services.runner, cache_seconds=0)
    assert run(elsewhere.get, agent).sensitivity_ceiling == "private"
    put(client, agent, sensitivity_ceiling="normal")
    assert run(elsewhere.get, agent).sensitivity_ceiling == "normal"
    reads = services.preferences.reads
    for _ in range(5):
        search(client, agent, "anything at all")
    assert services.preferences.reads == reads  # cached: no read per search
