"""Small helpers for API tests."""
from __future__ import annotations

from typing import Any


def store(client, agent: str, text: str, **fields: Any) -> dict:
    response = client.post("/v1/memories", json={"agent": agent, "text": text, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def store_many(client, agent: str, texts: list[str], **fields: Any) -> list[dict]:
    stored: list[dict] = []
    for start in range(0, len(texts), 1000):
        chunk = [{"agent": agent, "text": t, **fields} for t in texts[start:start + 1000]]
        response = client.post("/v1/memories:batch", json={"memories": chunk})
        assert response.status_code == 201, response.text
        stored += response.json()["memories"]
    return stored


def search(client, agent: str, query: str, **options: Any) -> list[dict]:
    response = client.post("/v1/search", json={"agent": agent, "query": query, **options})
    assert response.status_code == 200, response.text
    return response.json()["results"]


def list_all(client, agent: str, **params: Any) -> list[dict]:
    items, cursor = [], None
    while True:
        query = {"agent": agent, "limit": 200, **params, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/memories", params=query).json()
        items += page["items"]
        cursor = page["next_cursor"]
        if not cursor:
            return items


def assert_problem(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    if field is not None:
        assert field in {e["field"] for e in body.get("errors", [])}, body
    return body


def scrape(client, **headers: str) -> dict[tuple[str, frozenset], float]:
    """GET /metrics, parsed by prometheus-client's own parser of the text format (a line it cannot
    read fails here): every sample by name and labels."""
    from prometheus_client.parser import text_string_to_metric_families

    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4"), response.headers
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(response.text) for s in family.samples}


def sample(samples: dict[tuple[str, frozenset], float], name: str, **labels: str) -> float:
    """The sum of the samples named `name` whose labels include `labels` (0 when there is none)."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= have)
