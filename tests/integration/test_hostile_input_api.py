"""Hostile input (issue 13, items 1 and 2): what once answered 500, stored what it could not give
back, or poisoned a tenant's reads now answers 422 naming the field, writes nothing, and reads
survive whatever an older version already stored.

Bodies are sent as raw JSON text: `\\ud800` (a lone surrogate) and `NaN` are what a hostile client
puts on the wire, and no JSON encoder on the test side may "fix" them first."""
from __future__ import annotations

import json
import uuid

import pytest

from graph.memories.rules import MAX_METADATA_DEPTH
from tests.helpers import assert_problem, list_all, store

EDGE_TIMES = ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"]


def raw(client, method: str, url: str, text: str, **params):
    return client.request(method, url, content=text.encode(), params=params,
                          headers={"content-type": "application/json"})


def nested(depth: int) -> str:
    """A JSON object `depth` levels deep, as text (json.dumps itself gives up near 1,000)."""
    return '{"k":' * (depth - 1) + '{"k":1}' + "}" * (depth - 1)


def memory_json(agent: str, text: str = '"ok"', **raw_fields: str) -> str:
    fields = "".join(f', "{name}": {value}' for name, value in raw_fields.items())
    return f'{{"agent": "{agent}", "text": {text}{fields}}}'


# Each case: the raw JSON of a memory's fields besides agent, and the field the problem must name.
BAD_MEMORY_FIELDS = [
    ({"metadata": nested(MAX_METADATA_DEPTH + 1)}, "metadata"),
    ({"metadata": nested(256)}, "metadata"),
    ({"metadata": nested(600)}, "metadata"),
    ({"metadata": '{"k": "\\ud800"}'}, "metadata.k"),
    ({"metadata": '{"\\udfff": 1}'}, "metadata"),
    ({"metadata": '{"list": [1, "a\\ud800b"]}'}, "metadata.list[1]"),
    ({"metadata": '{"k": NaN}'}, "metadata.k"),
    ({"metadata": '{"k": [Infinity]}'}, "metadata.k[0]"),
    ({"metadata": '{"k": -Infinity}'}, "metadata.k"),
    ({"text": '"caf\\udce9"'}, "text"),
    ({"category": '"\\ud800"'}, "category"),
    ({"tags": '["ok", "\\ud800"]'}, "tags[1]"),
    ({"provenance": '{"source": "user_explicit", "ref": "\\ud800"}'}, "provenance.ref"),
    ({"quarantine": '{"details": "\\ud800"}'}, "quarantine.details"),
    ({"claim": '{"subject": "user", "predicate": "likes", "value": "\\ud800"}'}, "claim.value"),
    ({"claim": '{"subject": "\\ud800", "predicate": "likes", "value": "tea"}'}, "claim.subject"),
    ({"claim": '{"subject": "u", "predicate": "p", "value": "v", "scope": "session", "session_id": "\\ud800"}'},
     "claim.session_id"),
]
EDGE_TIME_FIELDS = [({"event_at": f'"{t}"'}, "event_at") for t in EDGE_TIMES] + [
    ({"claim": f'{{"subject": "user", "predicate": "lives_in", "value": "Oslo", "{name}": "{t}"}}'}, f"claim.{name}")
    for name in ("valid_from", "valid_until") for t in EDGE_TIMES]


def _fields(case: dict[str, str]) -> dict[str, str]:
    text = case.get("text", '"ok"')
    return {"text": text, **{k: v for k, v in case.items() if k != "text"}}


@pytest.mark.parametrize("case, field", BAD_MEMORY_FIELDS + EDGE_TIME_FIELDS,
                         ids=[f"{f}-{i}" for i, (_, f) in enumerate(BAD_MEMORY_FIELDS + EDGE_TIME_FIELDS)])
def test_a_bad_memory_is_422_naming_the_field_and_writes_nothing(client, agent, case, field):
    fields = _fields(case)
    body = memory_json(agent, **fields)
    assert_problem(raw(client, "POST", "/v1/memories", body), 422, field)
    # In a batch of five, one bad item refuses the batch, names the item, and writes none of them.
    good = [memory_json(agent, text=f'"fine {i}"') for i in range(4)]
    batch = '{"memories": [' + ", ".join([*good[:2], body, *good[2:]]) + "]}"
    assert_problem(raw(client, "POST", "/v1/memories:batch", batch), 422, f"memories[2].{field}")
    assert list_all(client, agent, include_all="true") == []


@pytest.mark.parametrize("case, field", [c for c in BAD_MEMORY_FIELDS + EDGE_TIME_FIELDS
                                         if next(iter(c[0])) in ("metadata", "text", "category", "tags", "event_at")],
                         ids=lambda c: str(c)[:30] if isinstance(c, str) else None)
def test_a_bad_patch_is_422_naming_the_field_and_changes_nothing(client, agent, case, field):
    memory = store(client, agent, "The user prefers tea", metadata={"a": 1})
    [(name, value)] = case.items()
    response = raw(client, "PATCH", f"/v1/memories/{memory['id']}", f'{{"{name}": {value}}}', agent=agent)
    assert_problem(response, 422, field)
    after = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()
    assert (after["version"], after["text"], after["metadata"]) == (1, "The user prefers tea", {"a": 1})


def test_metadata_at_the_depth_limit_round_trips(client, agent):
    body = memory_json(agent, metadata=nested(MAX_METADATA_DEPTH))
    response = raw(client, "POST", "/v1/memories", body)
    assert response.status_code == 201, response.text
    assert response.json()["metadata"] == json.loads(nested(MAX_METADATA_DEPTH))


def test_metadata_too_deep_for_the_json_parser_is_a_4xx_problem(client, agent):
    """Beyond what Python's JSON parser nests (about 1,000 levels) the body cannot be read at all:
    a 4xx problem, still nothing written."""
    response = raw(client, "POST", "/v1/memories", memory_json(agent, metadata=nested(999)))
    assert 400 <= response.status_code < 500
    assert_problem(response, response.status_code)
    assert list_all(client, agent, include_all="true") == []


def test_valid_surrogate_pairs_and_other_unicode_are_fine(client, agent):
    body = memory_json(agent, text='"emoji \\ud83d\\ude00 caf\\u00e9"', metadata='{"k": "\\ud83d\\ude00"}')
    response = raw(client, "POST", "/v1/memories", body)
    assert response.status_code == 201, response.text
    assert response.json()["text"] == "emoji \U0001F600 café"
    assert response.json()["metadata"] == {"k": "\U0001F600"}


@pytest.mark.parametrize("name", ["after", "before", "as_of"])
@pytest.mark.parametrize("when", EDGE_TIMES)
def test_search_times_at_the_edges_are_422(client, agent, name, when):
    store(client, agent, "The user prefers tea")
    body = {"agent": agent, "query": "tea", name: when}
    assert_problem(client.post("/v1/search", json=body), 422, name)
    assert_problem(client.post("/v1/context", json=body), 422, name)
    many = {"agent": agent, "searches": [{"query": "tea", name: when}]}
    assert_problem(client.post("/v1/search:many", json=many), 422, f"searches[0].{name}")


@pytest.mark.parametrize("route", ["/v1/search", "/v1/context"])
def test_a_lone_surrogate_in_a_query_is_422(client, agent, route):
    body = f'{{"agent": "{agent}", "query": "tea \\ud800"}}'
    assert_problem(raw(client, "POST", route, body), 422, "query")
    body = f'{{"agent": "{agent}", "query": "tea", "session_id": "\\ud800"}}'
    assert_problem(raw(client, "POST", route, body), 422, "session_id")


def _b64(data: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize("cursor", [
    "!!!not base64!!!",
    "e30",  # {}
    _b64(b"not json"),
    _b64(b"[1, 2]"),
    _b64(b'["2024-01-01T00:00:00Z"]'),
    _b64(b'["2024-01-01T00:00:00Z", 5]'),
    _b64(b'{"a": 1, "b": 2}'),
    _b64(b'["2024-W01", "x"]'),
    _b64(b'["20240101T000000", "x"]'),
    _b64(b'["2024-01-01", "x"]'),
    _b64(b'["2024-01-01T00:00:00Z", "not-a-uuid"]'),
    _b64(b'["9999-12-31T23:59:59-14:00", "' + str(uuid.uuid4()).encode() + b'"]'),
    _b64(b'["0001-01-01T00:00:00+14:00", "' + str(uuid.uuid4()).encode() + b'"]'),
    _b64(b'["2024-01-01T00:00:00Z", "\\ud800"]'),
    _b64(b'["\\ud800", "x"]'),
    _b64(b"\xff\xfe"),
])
@pytest.mark.parametrize("route", ["/v1/memories", "/v1/quarantine"])
def test_a_hand_made_cursor_is_a_4xx_problem(client, agent, route, cursor):
    store(client, agent, "The user prefers tea")
    response = client.get(route, params={"agent": agent, "cursor": cursor})
    assert response.status_code in (400, 422), response.text
    assert_problem(response, response.status_code, "cursor")


def test_a_cursor_the_service_issued_still_pages(client, agent):
    stored = [store(client, agent, f"memory {i}")["id"] for i in range(3)]
    first = client.get("/v1/memories", params={"agent": agent, "limit": 2}).json()
    rest = client.get("/v1/memories", params={"agent": agent, "limit": 2, "cursor": first["next_cursor"]}).json()
    assert sorted(m["id"] for m in first["items"] + rest["items"]) == sorted(stored)


# -- reads survive what an older version stored --------------------------------------------------

LEGACY_METADATA = {
    "deep": nested(600),
    "too deep to parse": nested(2_000),
    "lone surrogate": '{"k": "\\ud800", "\\udfff": "v", "ok": "fine"}',
    "non-finite": '{"n": NaN, "i": [Infinity, -Infinity], "ok": 1}',
    "not json": "{not json",
    "not an object": "[1, 2, 3]",
}


@pytest.mark.parametrize("kind", sorted(LEGACY_METADATA))
def test_reads_survive_metadata_an_older_version_stored(client, agent, cypher, kind):
    memory = store(client, agent, "The user prefers green tea", metadata={"was": "fine"})
    other = store(client, agent, "The user lives in Oslo")
    # What an older version wrote, straight into the graph (the API no longer accepts it).
    cypher("MATCH (m:Memory {agent: $agent, id: $id}) SET m.metadata = $metadata",
           agent=agent, id=memory["id"], metadata=LEGACY_METADATA[kind])
    listed = client.get("/v1/memories", params={"agent": agent})
    assert listed.status_code == 200, listed.text
    assert {m["id"] for m in listed.json()["items"]} == {memory["id"], other["id"]}
    got = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent})
    assert got.status_code == 200, got.text
    metadata = got.json()["metadata"]
    assert metadata is None or isinstance(metadata, dict)
    found = client.post("/v1/search", json={"agent": agent, "query": "green tea"})
    assert found.status_code == 200, found.text
    assert memory["id"] in {h["id"] for h in found.json()["results"]}
    assert client.post("/v1/context", json={"agent": agent, "query": "green tea"}).status_code == 200
    assert client.get(f"/v1/memories/{memory['id']}/explain", params={"agent": agent}).status_code == 200
    # The export reads it too, and writes JSON any reader (this service's import included) can parse.
    exported = client.get("/v1/export", params={"agent": agent})
    assert exported.status_code == 200, exported.text
    lines = [json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} in the export")) for line in
             exported.text.splitlines()]
    assert memory["id"] in {line.get("id") for line in lines} and lines[-1]["kind"] == "end"
    # The owner can now repair or remove it.
    patched = client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent}, json={"metadata": {"ok": 1}})
    assert patched.status_code == 200, patched.text
    assert patched.json()["metadata"] == {"ok": 1}


def test_read_metadata_keeps_what_is_valid(client, agent, cypher):
    memory = store(client, agent, "The user prefers tea")
    cypher("MATCH (m:Memory {agent: $agent, id: $id}) SET m.metadata = $metadata",
           agent=agent, id=memory["id"], metadata=LEGACY_METADATA["lone surrogate"])
    metadata = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()["metadata"]
    assert metadata == {"k": "\ufffd", "\ufffd": "v", "ok": "fine"}
    cypher("MATCH (m:Memory {agent: $agent, id: $id}) SET m.metadata = $metadata",
           agent=agent, id=memory["id"], metadata=LEGACY_METADATA["non-finite"])
    metadata = client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).json()["metadata"]
    assert metadata == {"n": None, "i": [None, None], "ok": 1}


def test_history_survives_an_audit_record_an_older_version_stored(client, agent, cypher):
    memory = store(client, agent, "The user prefers tea")
    assert client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                        json={"metadata": {"a": 1}}).status_code == 200
    # An older version audited the patch's metadata as given, lone surrogate included.
    cypher("MATCH (o:Operation {agent: $agent, op: 'update'}) SET o.after = $after",
           agent=agent, after='{"metadata": {"k": "\\ud800"}, "deep": ' + nested(600) + "}")
    response = client.get(f"/v1/memories/{memory['id']}/history", params={"agent": agent})
    assert response.status_code == 200, response.text
    [update] = [o for o in response.json()["operations"] if o["op"] == "update"]
    assert update["after"]["metadata"] == {"k": "\ufffd"}
