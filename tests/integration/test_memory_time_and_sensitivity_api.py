"""Seed 004's temporal fields and sensitivity on a memory: when it takes effect, when it expires, how
it recurs, whether it is history, how sensitive it is, and its sentiment scored at write time."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.helpers import search


def stored(client, agent, text, **fields):
    response = client.post("/v1/memories", json={"agent": agent, "text": text, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def found(client, agent, query, **options):
    return {r["id"] for r in search(client, agent, query, **options)}


def later(**delta):
    return (datetime.now(UTC) + timedelta(**delta)).isoformat()


def test_the_fields_round_trip_through_store_read_and_export(client, agent):
    memory = stored(client, agent, "Yoga class every Monday until the end of the term",
                    memory_type="event", sensitivity="sensitive", effective_from=later(days=-1),
                    expires_at=later(days=30), recurrence="FREQ=WEEKLY;BYDAY=MO", historical=False)
    read = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert read["sensitivity"] == "sensitive"
    assert read["recurrence"] == "FREQ=WEEKLY;BYDAY=MO"
    assert read["effective_from"] is not None and read["expires_at"] is not None
    assert read["historical"] is False
    exported = client.get("/v1/export", params={"agent": agent}).text
    assert '"recurrence":"FREQ=WEEKLY;BYDAY=MO"' in exported.replace(" ", "")


def test_an_expired_memory_leaves_search_at_once_but_stays_readable(client, agent):
    gone = stored(client, agent, "The office wifi is down until noon", expires_at=later(seconds=-1))
    kept = stored(client, agent, "The office wifi password rotates monthly", expires_at=later(days=1))
    assert found(client, agent, "office wifi") == {kept["id"]}
    explained = client.post("/v1/search", json={"agent": agent, "query": "office wifi", "explain": True}).json()
    assert explained["meta"]["excluded"]["expired"] == 1
    assert client.get(f"/v1/memories/{gone['id']}", params={"agent": agent}).status_code == 200
    # As of a time before it expired, it was part of what was true.
    assert gone["id"] in found(client, agent, "office wifi", as_of=later(days=-1))


def test_a_memory_that_takes_effect_later_is_hidden_until_then(client, agent):
    future = stored(client, agent, "The user works from the Porto office", effective_from=later(days=30))
    assert found(client, agent, "Porto office") == set()
    assert found(client, agent, "Porto office", as_of=later(days=31)) == {future["id"]}


def test_sensitivity_ceiling_of_search_and_context(client, agent):
    normal = stored(client, agent, "The user enjoys running by the river")
    health = stored(client, agent, "The user runs to manage their blood pressure", sensitivity="sensitive")
    private = stored(client, agent, "The user runs to get away from a difficult marriage", sensitivity="private")
    query = "why does the user run"
    assert found(client, agent, query) == {normal["id"], health["id"]}
    assert found(client, agent, query, sensitivity_ceiling="normal") == {normal["id"]}
    assert found(client, agent, query, sensitivity_ceiling="private") == {normal["id"], health["id"], private["id"]}
    context = client.post("/v1/context", json={"agent": agent, "query": query, "sensitivity_ceiling": "normal"})
    assert context.status_code == 200, context.text
    assert "blood pressure" not in context.text and "marriage" not in context.text


def test_a_patch_can_reverse_an_expiry_and_change_sensitivity(client, agent):
    memory = stored(client, agent, "Parking permit for lot B", expires_at=later(seconds=-1))
    assert found(client, agent, "parking permit") == set()
    patched = client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                           json={"expires_at": None, "sensitivity": "private"})
    assert patched.status_code == 200, patched.text
    assert patched.json()["expires_at"] is None and patched.json()["sensitivity"] == "private"
    assert found(client, agent, "parking permit", sensitivity_ceiling="private") == {memory["id"]}
    trail = client.get(f"/v1/memories/{memory['id']}/history", params={"agent": agent}).json()
    update = next(r for r in trail["operations"] if r["op"] == "update")
    assert update["before"]["sensitivity"] == "normal" and update["after"]["sensitivity"] == "private"
    assert update["before"]["expires_at"] is not None and update["after"]["expires_at"] is None


def test_sentiment_is_scored_at_write_time_and_rescored_with_new_text(client, agent):
    happy = stored(client, agent, "I absolutely love my new job, the team is wonderful!")
    sad = stored(client, agent, "My job has been miserable and exhausting lately.")
    flat = stored(client, agent, "The user lives in Lisbon.")
    assert happy["sentiment"] > 0.5 and sad["sentiment"] < -0.3 and flat["sentiment"] == 0.0
    patched = client.patch(f"/v1/memories/{flat['id']}", params={"agent": agent},
                           json={"text": "The user hates living in Lisbon."}).json()
    assert patched["sentiment"] < -0.3


def test_bad_temporal_and_sensitivity_input_is_refused_naming_the_field(client, agent):
    cases = [({"sensitivity": "secret"}, "sensitivity"),
             ({"recurrence": "every monday"}, "recurrence"),
             ({"effective_from": later(days=2), "expires_at": later(days=1)}, "expires_at"),
             ({"historical": "yes"}, "historical")]
    for fields, name in cases:
        response = client.post("/v1/memories", json={"agent": agent, "text": "A note", **fields})
        assert response.status_code == 422, (fields, response.text)
        assert name in response.text
    page = client.get("/v1/memories", params={"agent": agent}).json()
    assert page["count"] == 0
