"""Probes and API docs."""
from __future__ import annotations


def test_health_and_ready(client, backend_settings):
    health = client.get("/health").json()
    assert health["status"] == "ok"
    assert (health["database"]["kind"], health["database"]["state"], health["database"]["restarts"]) == \
        (backend_settings.backend_kind, "up", 0)
    ready = client.get("/ready")
    assert ready.status_code == 200
    body = ready.json()
    assert body["ready"] is True and body["checks"] == {"schema": True, "model": True, "backend": True}
    assert body["backend"] == backend_settings.backend_kind
    assert body["backend"] in {"arcadedb-embedded", "neo4j-local"}
    assert body["database"]["state"] == "up"


def test_openapi_docs_are_served(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ["/v1/memories", "/v1/memories:batch", "/v1/memories/{memory_id}", "/v1/search",
                 "/health", "/ready"]:
        assert path in paths
