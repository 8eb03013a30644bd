"""Idempotency-Key on writes (issue 13, item 7): a retried write returns its first answer instead of
writing twice; the record commits in the write's own transaction."""
from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from tests.conftest import TEST_ADMIN_KEY
from tests.helpers import assert_problem, list_all, store

ADMIN = {"Authorization": f"Bearer {TEST_ADMIN_KEY}"}


def key() -> dict:
    return {"Idempotency-Key": f"k-{uuid.uuid4()}"}


@contextmanager
def tuned(services, **values):
    """The idempotency service with other values for the length of a test."""
    before = {name: getattr(services.idempotency, name) for name in values}
    for name, value in values.items():
        setattr(services.idempotency, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(services.idempotency, name, value)


def records(cypher, agent: str) -> list[dict]:
    return cypher("MATCH (r:IdempotencyRecord {agent: $agent}) RETURN r.status AS status, r.body AS body",
                  agent=agent)


def test_a_retried_store_returns_the_first_answer_and_stores_once(client, agent, cypher):
    headers = key()
    body = {"agent": agent, "text": "The user's flight lands at 18:05"}
    first = client.post("/v1/memories", json=body, headers=headers)
    again = client.post("/v1/memories", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again.headers["location"] == first.headers["location"]
    assert again.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in first.headers
    assert again.headers["content-type"] == "application/json"
    assert len(list_all(client, agent)) == 1
    [record] = records(cypher, agent)
    assert record["status"] == 201 and first.json()["id"] in record["body"]


def test_the_same_key_with_another_body_is_409(client, agent):
    headers = key()
    assert client.post("/v1/memories", json={"agent": agent, "text": "first"}, headers=headers).status_code == 201
    body = assert_problem(client.post("/v1/memories", json={"agent": agent, "text": "second"}, headers=headers), 409)
    assert body["type"].endswith("idempotency-key-reused")
    assert [m["text"] for m in list_all(client, agent)] == ["first"]
    assert_problem(client.post("/v1/memories", json={"agent": agent, "text": "x"},
                               headers={"Idempotency-Key": "x" * 256}), 400)


def test_a_retried_batch_patch_and_hard_delete_replay_instead_of_acting_again(client, agent):
    batch = {"memories": [{"agent": agent, "text": f"Batch item {i}"} for i in range(5)]}
    headers = key()
    first = client.post("/v1/memories:batch", json=batch, headers=headers)
    assert first.status_code == 201
    assert client.post("/v1/memories:batch", json=batch, headers=headers).json() == first.json()
    assert len(list_all(client, agent)) == 5

    target = first.json()["memories"][0]["id"]
    patch, headers = {"importance": 0.9, "expected_version": 1}, key()
    patched = client.patch(f"/v1/memories/{target}", params={"agent": agent}, json=patch, headers=headers)
    assert patched.status_code == 200 and patched.json()["version"] == 2
    # Without the key this would now be a version conflict; with it, the first answer.
    replayed = client.patch(f"/v1/memories/{target}", params={"agent": agent}, json=patch, headers=headers)
    assert replayed.status_code == 200 and replayed.json() == patched.json()
    assert_problem(client.patch(f"/v1/memories/{target}", params={"agent": agent}, json=patch), 409)

    headers = key()
    gone = client.delete(f"/v1/memories/{target}", params={"agent": agent, "hard": "true"}, headers=headers)
    assert gone.status_code == 200
    again = client.delete(f"/v1/memories/{target}", params={"agent": agent, "hard": "true"}, headers=headers)
    assert again.status_code == 200 and again.json() == gone.json()  # not 404
    # The query is part of the request: the same key on an archive is another request.
    assert_problem(client.delete(f"/v1/memories/{target}", params={"agent": agent}, headers=headers), 409)


def test_keys_are_scoped_per_caller_and_agent(client, agent):
    headers = key()
    for tenant in (agent, f"{agent}-b"):
        response = client.post("/v1/memories", json={"agent": tenant, "text": "same words"}, headers=headers)
        assert response.status_code == 201 and "idempotent-replayed" not in response.headers
    issued = client.post("/v1/admin/keys", json={"name": "k", "role": "write", "agents": [agent]}, headers=ADMIN)
    scoped = {**headers, "Authorization": f"Bearer {issued.json()['key']}"}
    response = client.post("/v1/memories", json={"agent": agent, "text": "same words"}, headers=scoped)
    assert response.status_code == 201 and "idempotent-replayed" not in response.headers
    assert len(list_all(client, agent)) == 2


def test_concurrent_requests_with_one_key_write_once(client, agent):
    headers = key()
    body = {"memories": [{"agent": agent, "text": f"Concurrent item {i}"} for i in range(20)]}

    def send(_):
        return client.post("/v1/memories:batch", json=body, headers=headers)

    with ThreadPoolExecutor(6) as pool:
        responses = list(pool.map(send, range(6)))
    assert {r.status_code for r in responses} == {201}, [r.text for r in responses]
    assert len({r.text for r in responses}) == 1
    assert sum(r.headers.get("idempotent-replayed") == "true" for r in responses) == 5
    assert len(list_all(client, agent)) == 20


def test_a_failed_write_records_nothing_and_a_committed_one_always_has_its_record(client, services, agent, cypher):
    memory = store(client, agent, "Version guard")
    headers = key()
    stale = {"importance": 0.2, "expected_version": 7}
    assert_problem(client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent}, json=stale,
                                headers=headers), 409)
    assert records(cypher, agent) == []  # rolled back with the write
    fresh = {"importance": 0.2, "expected_version": 1}
    assert client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent}, json=fresh,
                        headers=headers).status_code == 200

    # A write that committed but whose answer was never kept (the service died in between): the
    # retry is told so, and does not write again.
    headers = key()
    body = {"agent": agent, "text": "Committed, answer lost"}
    assert client.post("/v1/memories", json=body, headers=headers).status_code == 201
    cypher("MATCH (r:IdempotencyRecord {agent: $agent}) WHERE r.status = 201 REMOVE r.status", agent=agent)
    with tuned(services, wait_seconds=0):
        problem = assert_problem(client.post("/v1/memories", json=body, headers=headers), 409)
    assert problem["type"].endswith("idempotency-key-in-use")
    assert [m["text"] for m in list_all(client, agent)].count("Committed, answer lost") == 1


def test_a_hard_delete_removes_kept_answers_that_name_the_memory(client, agent, cypher):
    headers = key()
    body = {"agent": agent, "text": "The user's passport number is X1234567"}
    memory = client.post("/v1/memories", json=body, headers=headers).json()
    assert client.delete(f"/v1/memories/{memory['id']}", params={"agent": agent, "hard": "true"}).status_code == 200
    assert not any("X1234567" in (r["body"] or "") for r in records(cypher, agent))
    problem = assert_problem(client.post("/v1/memories", json=body, headers=headers), 409)
    assert problem["type"].endswith("idempotency-key-redacted")
    assert list_all(client, agent) == []  # not stored again


def test_a_key_expires_after_its_ttl(client, services, agent, cypher):
    headers = key()
    with tuned(services, ttl_seconds=0):
        assert client.post("/v1/memories", json={"agent": agent, "text": "one"}, headers=headers).status_code == 201
    response = client.post("/v1/memories", json={"agent": agent, "text": "two"}, headers=headers)
    assert response.status_code == 201 and "idempotent-replayed" not in response.headers
    assert sorted(m["text"] for m in list_all(client, agent)) == ["one", "two"]
    assert len(records(cypher, agent)) == 1  # the expired record went when its key was used again
