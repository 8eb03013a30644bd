"""Secrets are never stored (issue 24 item 3), through the HTTP API on both backends: a store, a
batch, a PATCH and an import that hold a secret are refused with a 422 naming field, kind and span;
nothing is written, and the secret is absent from the answer, the tenant's export (memories, claims,
sources, audit trail), every log record and every text handed to the embedding model. With
secrets=redact the same writes store the text with [REDACTED:<kind>] in place of each secret and
say what they redacted."""
from __future__ import annotations

import json
import logging

import pytest

from credence_client import endpoints
from credence_client.models import PatchedMemory, StoredMemory
from tests.helpers import assert_problem, list_all, store
from tests.integration.test_client_schema import branches, ref_name, route

AWS = "AKIAQ3EGRV7KXN2MZB4T"
CARD = "4111 1111 1111 1111"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
       "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
PASSWORD = "plainword"  # only a password by its key's name
SECRETS = (AWS, CARD, JWT, PASSWORD, CARD.replace(" ", ""))


@pytest.fixture
def witness(services, monkeypatch, caplog):
    """Everything a secret could leak into besides the graph: every log record (any logger, any
    level) and every text given to the embedding model. `witness()` asserts none holds a secret."""
    caplog.set_level(logging.DEBUG)
    embedded: list[str] = []
    encode = services.encoder.encode

    async def spy(texts):
        embedded.extend(texts)
        return await encode(texts)

    monkeypatch.setattr(services.encoder, "encode", spy)

    def check() -> list[str]:
        logged = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records)
        for secret in SECRETS:
            assert secret not in logged
            assert not any(secret in text for text in embedded)
        return embedded
    return check


def export_text(client, agent) -> str:
    response = client.get("/v1/export", params={"agent": agent})
    assert response.status_code == 200, response.text
    return response.text


def assert_absent(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


def refused(response, field: str) -> list[dict]:
    problem = assert_problem(response, 422, field)
    assert_absent(response.text)
    return [{k: f[k] for k in ("field", "kind", "start", "end")} for f in problem["secrets"]]


def memory_lines(client, agent) -> list[dict]:
    return [line for line in map(json.loads, export_text(client, agent).splitlines()) if line["kind"] == "memory"]


def test_a_store_with_a_secret_is_refused_naming_field_kind_and_span(client, agent, witness):
    text = f"deploy with key {AWS} tomorrow"
    response = client.post("/v1/memories", json={
        "agent": agent, "text": text, "metadata": {"db": {"password": PASSWORD, "host": "db.internal"}},
        "claim": {"subject": "billing", "predicate": "pays_with", "value": f"card {CARD}"}})
    assert refused(response, "text") == [
        {"field": "text", "kind": "aws_access_key", "start": text.index(AWS), "end": text.index(AWS) + len(AWS)},
        {"field": "metadata.db.password", "kind": "password", "start": 0, "end": len(PASSWORD)},
        {"field": "claim.value", "kind": "card_number", "start": 5, "end": 5 + len(CARD)}]
    assert list_all(client, agent, include_all=True) == []
    assert_absent(export_text(client, agent))
    assert memory_lines(client, agent) == []
    witness()


def test_a_batch_with_one_secret_is_refused_whole(client, agent, witness):
    response = client.post("/v1/memories:batch", json={"memories": [
        {"agent": agent, "text": "The user likes green tea"},
        {"agent": agent, "text": "session token", "tags": ["auth"], "metadata": {"jwt": JWT}}]})
    assert refused(response, "memories[1].metadata.jwt") == [
        {"field": "memories[1].metadata.jwt", "kind": "jwt", "start": 0, "end": len(JWT)}]
    assert list_all(client, agent, include_all=True) == []  # the clean item was not written either
    assert_absent(export_text(client, agent))
    # Nothing of the batch reached the model: detection comes before embedding.
    assert "The user likes green tea" not in witness()


def test_a_patch_with_a_secret_is_refused_and_changes_nothing(client, agent, witness):
    memory = store(client, agent, "The staging database is on db-2")
    path = f"/v1/memories/{memory['id']}"
    response = client.patch(path, params={"agent": agent},
                            json={"text": f"Staging creds: user admin password {PASSWORD}1!", "importance": 0.9})
    assert [f["kind"] for f in refused(response, "text")] == ["password"]
    response = client.patch(path, params={"agent": agent}, json={"metadata": {"card": CARD}})
    assert refused(response, "metadata.card") == [
        {"field": "metadata.card", "kind": "card_number", "start": 0, "end": len(CARD)}]
    after = client.get(path, params={"agent": agent}).json()
    assert (after["text"], after["version"], after["importance"], after["metadata"]) == \
        ("The staging database is on db-2", 1, memory["importance"], None)
    history = client.get(f"{path}/history", params={"agent": agent}).json()
    assert [op["op"] for op in history["operations"]] == ["store"]
    assert_absent(json.dumps(history))
    assert_absent(export_text(client, agent))
    witness()


def test_an_import_with_a_secret_is_refused_naming_the_line(client, agent, witness):
    body = "\n".join(json.dumps(line) for line in (
        {"kind": "header", "format": "credence-export", "version": 1},
        {"kind": "memory", "id": "0b5e3c1a-3f7e-4d7c-9a51-2f5c0e9d1a11", "text": "Likes tea",
         "created_at": "2026-01-01T00:00:00+00:00"},
        {"kind": "memory", "id": "0b5e3c1a-3f7e-4d7c-9a51-2f5c0e9d1a12", "text": f"api token {JWT}",
         "created_at": "2026-01-01T00:00:00+00:00"}))
    response = client.post("/v1/import", params={"agent": agent}, content=body,
                           headers={"content-type": "application/x-ndjson"})
    assert refused(response, "line 3: memory.text") == [
        {"field": "line 3: memory.text", "kind": "jwt", "start": 10, "end": 10 + len(JWT)}]
    assert memory_lines(client, agent) == []
    response = client.post("/v1/import", params={"agent": agent}, json=[{"id": "m-1", "memory": f"card is {CARD}"}])
    assert [f["field"] for f in refused(response, "line 1: mem0.memory")] == ["line 1: mem0.memory"]
    assert memory_lines(client, agent) == []
    witness()


def test_redact_mode_stores_the_redacted_text_and_says_so(client, agent, witness):
    text = f"deploy with key {AWS} tomorrow"
    response = client.post("/v1/memories", json={
        "agent": agent, "text": text, "secrets": "redact", "metadata": {"db": {"password": PASSWORD}},
        "claim": {"subject": "billing", "predicate": "pays_with", "value": f"card {CARD}"}})
    assert response.status_code == 201, response.text
    stored = response.json()
    assert stored["text"] == "deploy with key [REDACTED:aws_access_key] tomorrow"
    assert stored["metadata"] == {"db": {"password": "[REDACTED:password]"}}
    assert stored["claim"]["value"] == "card [REDACTED:card_number]"
    assert stored["redacted"] == [
        {"field": "text", "kind": "aws_access_key", "start": 16, "end": 36},
        {"field": "metadata.db.password", "kind": "password", "start": 0, "end": len(PASSWORD)},
        {"field": "claim.value", "kind": "card_number", "start": 5, "end": 5 + len(CARD)}]
    got = client.get(f"/v1/memories/{stored['id']}", params={"agent": agent}).json()
    assert (got["text"], got["metadata"]) == (stored["text"], stored["metadata"])
    # The model saw the redacted text (and the index's own warm-up query), never the secret.
    assert [t for t in witness() if t != "warm-up"] == [stored["text"]]

    # A batch redacts by its own choice; an item that says refuse is still refused.
    batch = {"secrets": "redact", "memories": [{"agent": agent, "text": f"token {JWT}"},
                                               {"agent": agent, "text": "plain note"}]}
    response = client.post("/v1/memories:batch", json=batch)
    assert response.status_code == 201, response.text
    first, second = response.json()["memories"]
    assert (first["text"], [r["kind"] for r in first["redacted"]]) == ("token [REDACTED:jwt]", ["jwt"])
    assert (second["text"], second["redacted"]) == ("plain note", [])
    batch["memories"][0]["secrets"] = "refuse"
    refused(client.post("/v1/memories:batch", json=batch), "memories[0].text")

    # A patch redacts, and its audit record holds the redacted text.
    response = client.patch(f"/v1/memories/{second['id']}", params={"agent": agent},
                            json={"text": f"pay with {CARD}", "secrets": "redact"})
    assert response.status_code == 200, response.text
    patched = response.json()
    assert (patched["text"], patched["version"], patched["redacted"]) == (
        "pay with [REDACTED:card_number]", 2, [{"field": "text", "kind": "card_number", "start": 9, "end": 28}])
    history = client.get(f"/v1/memories/{second['id']}/history", params={"agent": agent}).json()
    assert history["operations"][-1]["after"]["text"] == "pay with [REDACTED:card_number]"

    # An import redacts with ?secrets=redact.
    line = {"kind": "memory", "id": "0b5e3c1a-3f7e-4d7c-9a51-2f5c0e9d1a13", "text": f"aws {AWS}",
            "created_at": "2026-01-01T00:00:00+00:00"}
    response = client.post("/v1/import", params={"agent": agent, "secrets": "redact"}, content=json.dumps(line),
                           headers={"content-type": "application/x-ndjson"})
    assert response.status_code == 200, response.text
    assert response.json()["redacted"] == [{"field": "line 1: memory.text", "kind": "aws_access_key",
                                            "start": 4, "end": 24}]
    assert response.json()["created"]["memory"] == 1

    texts = sorted(m["text"] for m in list_all(client, agent))
    assert texts == sorted(["deploy with key [REDACTED:aws_access_key] tomorrow", "token [REDACTED:jwt]",
                            "pay with [REDACTED:card_number]", "aws [REDACTED:aws_access_key]"])
    assert_absent(export_text(client, agent))
    witness()


def test_an_unknown_mode_is_a_422_naming_secrets(client, agent):
    assert_problem(client.post("/v1/memories", json={"agent": agent, "text": "x", "secrets": "keep"}), 422, "secrets")
    assert_problem(client.post("/v1/import", params={"agent": agent, "secrets": "keep"}, content="{}",
                               headers={"content-type": "application/x-ndjson"}), 422, "secrets")


def test_the_client_reads_what_was_redacted(client, agent):
    """The light client reads a PATCH answer with the schema the route declares (PatchOut), and both
    a store's and a patch's answer keep `redacted`."""
    call = endpoints.update(agent, "0b5e3c1a-3f7e-4d7c-9a51-2f5c0e9d1a14", {"text": "t", "secrets": "redact"})
    answer = route(client.get("/openapi.json").json(), call.method, call.path)["responses"]["200"]
    assert {ref_name(s) for s in branches(answer["content"]["application/json"]["schema"])} == {"PatchOut"}
    assert call.read.model is PatchedMemory  # type: ignore[attr-defined]
    response = client.post("/v1/memories", json={"agent": agent, "text": f"key {AWS}", "secrets": "redact"})
    stored = StoredMemory.model_validate(response.json())
    assert stored.redacted == [{"field": "text", "kind": "aws_access_key", "start": 4, "end": 24}]
    response = client.patch(f"/v1/memories/{stored.id}", params=call.params,
                            json={"text": f"jwt {JWT}", "secrets": "redact"})
    patched = call.read(response.json())
    assert isinstance(patched, PatchedMemory)
    assert (patched.text, patched.redacted) == ("jwt [REDACTED:jwt]",
                                                [{"field": "text", "kind": "jwt", "start": 4, "end": 4 + len(JWT)}])
