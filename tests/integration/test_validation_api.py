"""Bad input gets a 4xx problem that names the field, and writes nothing."""
from __future__ import annotations

import pytest

from tests.helpers import assert_problem, list_all


def _cases(agent: str, cap: int):
    base = {"agent": agent, "text": "ok"}
    return [
        ({**base, "text": ""}, "text"),
        ({**base, "text": " \t\n"}, "text"),
        ({**base, "text": "x" * (cap + 1)}, "text"),
        ({**base, "importance": -0.1}, "importance"),
        ({**base, "importance": 1.01}, "importance"),
        ({**base, "importance": "0.5"}, "importance"),
        ({**base, "tags": "not-a-list"}, "tags"),
        ({**base, "tags": [""]}, "tags[0]"),
        ({**base, "memory_type": "gossip"}, "memory_type"),
        ({**base, "event_at": "last tuesday"}, "event_at"),
        ({**base, "metadata": ["not", "an", "object"]}, "metadata"),
        ({**base, "metadata": {"blob": "y" * 20_000}}, "metadata"),
        ({**base, "unknown_field": 1}, "unknown_field"),
        ({**base, "agent": ""}, "agent"),
        ({**base, "agent": " padded "}, "agent"),
        ({"text": "no agent"}, "agent"),
        ({"agent": agent}, "text"),
    ]


def test_each_bad_store_is_422_naming_the_field_and_writes_nothing(client, agent, services):
    for body, field in _cases(agent, services.settings.max_text_chars):
        body = dict(body)
        assert_problem(client.post("/v1/memories", json=body), 422, field)
    assert list_all(client, agent) == []


def test_text_at_the_cap_is_accepted(client, agent, services):
    cap = services.settings.max_text_chars
    response = client.post("/v1/memories", json={"agent": agent, "text": "y" * cap})
    assert response.status_code == 201


@pytest.mark.parametrize("body, field", [
    ({"query": "x", "limit": 0}, "limit"),
    ({"query": "x", "limit": 101}, "limit"),
    ({"query": ""}, "query"),
    ({"query": "   "}, "query"),
    ({"query": "x", "statuses": ["deleted"]}, "statuses[0]"),
    ({"query": "x", "statuses": []}, "statuses"),
    ({"query": "x", "min_score": 2}, "min_score"),
    ({"query": "x", "memory_types": ["gossip"]}, "memory_types[0]"),
    ({"query": "x", "extra": True}, "extra"),
])
def test_bad_search_is_422_naming_the_field(client, agent, body, field):
    assert_problem(client.post("/v1/search", json={"agent": agent, **body}), 422, field)


def test_malformed_ids_and_query_params_are_422(client, agent):
    assert_problem(client.get("/v1/memories/not-a-uuid", params={"agent": agent}), 422, "memory_id")
    assert_problem(client.get("/v1/memories", params={"agent": ""}), 422, "agent")
    assert_problem(client.get("/v1/memories", params={"agent": agent, "limit": 0}), 422, "limit")
    assert_problem(client.get("/v1/memories", params={"agent": agent, "status": "gone"}), 422, "status[0]")
    assert_problem(client.get("/v1/memories", params={}), 422, "agent")


def test_malformed_json_is_422(client):
    response = client.post("/v1/memories", content=b"{not json", headers={"content-type": "application/json"})
    assert_problem(response, 422)


def test_unknown_route_is_a_problem_too(client):
    assert_problem(client.get("/v1/nothing-here"), 404)
