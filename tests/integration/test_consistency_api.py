"""The consistency token: a write's answer carries the database's bookmarks of it, a later request
that sends them back runs after that write (tests/integration/test_shared_database.py: across two
service processes). Here, on both backends, in one service: the header's presence and its checks."""
from __future__ import annotations

from api.consistency import HEADER, decode, encode
from tests.helpers import assert_problem


def test_writes_answer_with_a_token_that_later_requests_carry(client, services, agent):
    stored = client.post("/v1/memories", json={"agent": agent, "text": "The kayak is in the boathouse."})
    assert stored.status_code == 201, stored.text
    bookmarks = decode(stored.headers[HEADER])
    assert bookmarks  # the driver's bookmarks of the write's transaction
    batch = client.post("/v1/memories:batch", json={"memories": [{"agent": agent, "text": "The oars are dry."}]},
                        headers={HEADER: stored.headers[HEADER]})
    assert batch.status_code == 201 and decode(batch.headers[HEADER]) not in (None, bookmarks)  # a later point

    read = client.get(f"/v1/memories/{stored.json()['id']}", params={"agent": agent},
                      headers={HEADER: batch.headers[HEADER]})
    assert read.status_code == 200 and read.json()["text"] == "The kayak is in the boathouse."
    assert HEADER not in read.headers  # nothing written, nothing to wait for
    found = client.post("/v1/search", json={"agent": agent, "query": "where is the kayak?"},
                        headers={HEADER: batch.headers[HEADER]})
    assert [r["id"] for r in found.json()["results"]][:1] == [stored.json()["id"]]

    # Not a token this service wrote: refused before anything runs.
    for bad in ("not a token", encode(set()), "x" * 9_000, encode({"a" * 600})):
        assert_problem(client.get("/v1/memories", params={"agent": agent}, headers={HEADER: bad}), 400)
    # A well-formed token naming no point of this database: Neo4j refuses it by name; ArcadeDB does
    # not check bookmarks (docs/backends.md), so the request runs.
    unknown = client.get("/v1/memories", params={"agent": agent}, headers={HEADER: encode({"FB:nonsense"})})
    if services.backend.is_neo4j:
        assert_problem(unknown, 422, field="consistency_token")
    else:
        assert unknown.status_code == 200
