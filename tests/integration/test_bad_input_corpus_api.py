"""Every write route against the bad-input corpus (tests/bad_inputs.py): each entry answers a 4xx
problem+json, and the tenant is exactly as it was (memories with their versions, statuses, trust
and feedback counts, links, predicates, conflicts and audit trail)."""
from __future__ import annotations

import pytest

from tests import bad_inputs as corpus
from tests.helpers import list_all, store

OPTIONAL_BODY = {("POST", "/v1/memories/{memory}/dispute?agent={agent}")}  # no body is a valid dispute


@pytest.fixture
def tenant(client, agent):
    memory = store(client, agent, "The user prefers green tea", metadata={"a": 1},
                   claim={"subject": "user", "predicate": "prefers", "value": "green tea"})
    other = store(client, agent, "The user lives in Oslo")
    assert client.post(f"/v1/memories/{memory['id']}/links",
                       json={"agent": agent, "type": "SUPPORTS", "to": other["id"]}).status_code == 201
    assert client.put("/v1/predicates/lives_in", params={"agent": agent},
                      json={"cardinality": "single"}).status_code == 200
    return {"agent": agent, "memory": memory["id"], "other": other["id"]}


def snapshot(client, tenant) -> dict:
    agent = tenant["agent"]
    ids = (tenant["memory"], tenant["other"])

    def get(url, **params):
        response = client.get(url, params={"agent": agent, **params})
        assert response.status_code == 200, response.text
        return response.json()

    return {
        "memories": sorted(list_all(client, agent, include_all="true"), key=lambda m: m["id"]),
        "predicates": get("/v1/predicates"),
        "conflicts": get("/v1/conflicts", include_resolved="true"),
        "links": {i: get(f"/v1/memories/{i}/links") for i in ids},
        "history": {i: get(f"/v1/memories/{i}/history") for i in ids},
    }


def send(client, method: str, url: str, body: str | None):
    headers = {"content-type": "application/json"} if body is not None else {}
    return client.request(method, url, content=None if body is None else body.encode(), headers=headers)


def refused(response) -> str | None:
    """None when the response is a 4xx problem; else what is wrong with it."""
    if not 400 <= response.status_code < 500:
        return f"{response.status_code}: {response.text[:200]}"
    if not response.headers.get("content-type", "").startswith("application/problem+json"):
        return f"{response.status_code} without problem+json: {response.headers.get('content-type')}"
    return None


def check_all(client, tenant, requests: list[tuple[str, str, str | None]]) -> None:
    before = snapshot(client, tenant)
    failures = []
    for method, url, body in requests:
        url = url.format(**tenant)
        body = None if body is None else body.format(**tenant)
        problem = refused(send(client, method, url, body))
        if problem:
            failures.append(f"{method} {url} {(body or '')[:120]!r} -> {problem}")
    assert not failures, "\n".join(failures)
    assert snapshot(client, tenant) == before


def memory_body(field: str, value: str) -> str:
    fields = {"agent": '"{agent}"', "text": '"A fine memory"', field: value}
    return "{{" + ", ".join(f'"{k}": {v}' for k, v in fields.items()) + "}}"


def test_create_refuses_the_corpus(client, tenant):
    bodies = corpus.ANY_BODY + [memory_body(f, v) for f, v in corpus.MEMORY_FIELDS + corpus.CREATE_ONLY_FIELDS]
    check_all(client, tenant, [("POST", "/v1/memories", b) for b in bodies])


def test_batch_refuses_the_corpus_whole(client, tenant):
    good = memory_body("importance", "0.5")
    bodies = corpus.ANY_BODY + ['{{"memories": []}}', '{{"memories": {{}}}}'] + [
        '{{"memories": [' + ", ".join([good, memory_body(f, v), good]) + "]}}"
        for f, v in corpus.MEMORY_FIELDS + corpus.CREATE_ONLY_FIELDS]
    check_all(client, tenant, [("POST", "/v1/memories:batch", b) for b in bodies])


def test_patch_refuses_the_corpus(client, tenant):
    bodies = corpus.ANY_BODY + corpus.PATCH_BODIES + ["{{" + f'"{f}": {v}' + "}}" for f, v in corpus.MEMORY_FIELDS]
    check_all(client, tenant, [("PATCH", "/v1/memories/{memory}?agent={agent}", b) for b in bodies])


@pytest.mark.parametrize("route", sorted(corpus.ROUTE_BODIES), ids=lambda r: f"{r[0]} {r[1].split('?')[0]}")
def test_other_write_routes_refuse_the_corpus(client, tenant, route):
    method, url = route
    generic = [b for b in corpus.ANY_BODY if not (route in OPTIONAL_BODY and b in ("", "null"))]
    check_all(client, tenant, [(method, url, b) for b in generic + corpus.ROUTE_BODIES[route]])


def test_write_routes_without_a_body_refuse_bad_parameters(client, tenant):
    check_all(client, tenant, [(method, url, None) for method, url in corpus.NO_BODY_ROUTES])


def test_import_refuses_the_generic_corpus(client, tenant):
    bodies = [b for b in corpus.ANY_BODY if b not in ("[]",)]  # an empty array is an empty, valid import
    check_all(client, tenant, [("POST", "/v1/import?agent={agent}", b) for b in bodies])


@pytest.mark.parametrize("route", ["/v1/memories", "/v1/memories:batch", "/v1/predicates", "/v1/import?agent={agent}"])
def test_bodies_that_are_not_utf8_are_refused(client, tenant, route):
    before = snapshot(client, tenant)
    for body in (b'{"agent": "\xff"}', b"\xfe\xff\x00{", b'[{"kind": "memory", "text": "\xc3"}]'):
        response = client.post(route.format(**tenant), content=body, headers={"content-type": "application/json"})
        assert refused(response) is None, (body, response.status_code, response.text)
    assert snapshot(client, tenant) == before
