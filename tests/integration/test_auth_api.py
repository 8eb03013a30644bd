"""With CREDENCE_API_KEY set, /v1 needs the bearer key; probes stay open."""
from __future__ import annotations

from dataclasses import replace

from fastapi.testclient import TestClient
from pydantic import SecretStr

from api.app import create_app
from tests.helpers import assert_problem


def test_v1_needs_the_key_and_probes_do_not(services):
    keyed = replace(services, settings=services.settings.model_copy(update={"api_key": SecretStr("s3cret")}))
    # Requests that pass auth stop at validation here, so this client never touches the driver,
    # which belongs to the session's event loop.
    client = TestClient(create_app(services=keyed))
    body = {"agent": "auth-test", "text": ""}
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret"}):
        response = client.post("/v1/memories", json=body, headers=headers)
        assert_problem(response, 401)
        assert response.headers["www-authenticate"] == "Bearer"
    assert_problem(client.post("/v1/memories", json=body, headers={"Authorization": "Bearer s3cret"}), 422, "text")
    assert_problem(client.post("/v1/search", json={"agent": "a", "query": "x", "limit": 0}), 401)
    assert client.get("/health").status_code == 200
