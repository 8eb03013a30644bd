"""A thin synchronous client for the Credence HTTP API (v1).

Each method is one call, takes the request's fields as keyword arguments and returns the
response's JSON as plain dicts, so the client never lags behind the server's schemas: the
server validates, and a rejected call raises `CredenceAPIError` with the problem's fields."""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx

DEFAULT_URL = "http://127.0.0.1:8000"


class CredenceAPIError(Exception):
    """A problem+json answer: `status`, `title`, `detail`, and per-field `errors` for bad input."""

    def __init__(self, status: int, title: str, detail: str, errors: list[dict[str, str]] | None = None,
                 body: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {title}: {detail}")
        self.status, self.title, self.detail = status, title, detail
        self.errors, self.body = errors or [], body or {}

    @classmethod
    def of(cls, response: httpx.Response) -> "CredenceAPIError":
        try:
            body = response.json()
        except ValueError:  # not JSON: a proxy's or a crashed server's page
            body = {}
        if not isinstance(body, dict):
            body = {}
        return cls(response.status_code, body.get("title") or response.reason_phrase,
                   body.get("detail") or response.text[:500], body.get("errors"), body)


def set_only(**fields: Any) -> dict[str, Any]:
    """Leave out what the caller did not set (None), so the server's defaults apply."""
    return {k: v for k, v in fields.items() if v is not None}


class Credence:
    """`Credence("http://host:8000", api_key=...)`, or `Credence.from_env()`; close it, or use `with`.

    `http` may be any `httpx.Client` whose base URL is the service (tests pass FastAPI's TestClient)."""

    def __init__(self, url: str = DEFAULT_URL, *, api_key: str | None = None, actor: str | None = None,
                 timeout: float = 30.0, http: httpx.Client | None = None) -> None:
        self._headers = set_only(**{"Authorization": f"Bearer {api_key}" if api_key else None,
                                    "X-Credence-Actor": actor})
        self._owned = http is None
        self._http = http if http is not None else httpx.Client(base_url=url, timeout=timeout)

    @classmethod
    def from_env(cls, **overrides: Any) -> "Credence":
        """CREDENCE_URL, CREDENCE_API_KEY (the service's key) and CREDENCE_ACTOR."""
        settings = {"url": os.environ.get("CREDENCE_URL") or DEFAULT_URL,
                    "api_key": os.environ.get("CREDENCE_API_KEY") or None,
                    "actor": os.environ.get("CREDENCE_ACTOR") or None}
        return cls(**{**settings, **overrides})

    def close(self) -> None:
        if self._owned:
            self._http.close()

    def __enter__(self) -> "Credence":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _call(self, method: str, path: str, *, params: dict[str, Any] | None = None,
              json: dict[str, Any] | None = None) -> Any:
        response = self._http.request(method, path, params=params, json=json, headers=self._headers)
        if response.status_code >= 400:
            raise CredenceAPIError.of(response)
        return response.json() if response.content else None

    def _pages(self, path: str, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
        cursor = None
        while True:
            page = self._call("GET", path, params=set_only(**params, cursor=cursor))
            yield from page["items"]
            cursor = page["next_cursor"]
            if not cursor:
                return

    # Memories
    def remember(self, agent: str, text: str, **fields: Any) -> dict[str, Any]:
        """Store one memory; fields as POST /v1/memories (memory_type, tags, claim, provenance...)."""
        return self._call("POST", "/v1/memories", json={"agent": agent, "text": text, **fields})

    def remember_many(self, agent: str, memories: list[str | dict[str, Any]]) -> list[dict[str, Any]]:
        """Store several memories in one transaction: all or none. Items are texts or field dicts."""
        items = [{"agent": agent, **({"text": m} if isinstance(m, str) else m)} for m in memories]
        return self._call("POST", "/v1/memories:batch", json={"memories": items})["memories"]

    def get(self, agent: str, memory_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/memories/{memory_id}", params={"agent": agent})

    def memories(self, agent: str, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every memory that passes the filters (status, memory_type, include_*), page by page."""
        return self._pages("/v1/memories", {"agent": agent, "limit": 200, **filters})

    def update(self, agent: str, memory_id: str, **changes: Any) -> dict[str, Any]:
        """PATCH: only the fields given change; pass expected_version to guard against lost updates."""
        return self._call("PATCH", f"/v1/memories/{memory_id}", params={"agent": agent}, json=changes)

    def archive(self, agent: str, memory_id: str) -> dict[str, Any]:
        return self._call("DELETE", f"/v1/memories/{memory_id}", params={"agent": agent})

    def delete(self, agent: str, memory_id: str) -> dict[str, Any]:
        """Hard delete: the memory, what only it referenced, and its audit payloads."""
        return self._call("DELETE", f"/v1/memories/{memory_id}", params={"agent": agent, "hard": "true"})

    def history(self, agent: str, memory_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/memories/{memory_id}/history", params={"agent": agent})

    # Retrieval
    def search(self, agent: str, query: str, **options: Any) -> dict[str, Any]:
        """Hybrid search; options as POST /v1/search (limit, mode, rerank, explain, filters)."""
        return self._call("POST", "/v1/search", json={"agent": agent, "query": query, **options})

    def search_many(self, agent: str, searches: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self._call("POST", "/v1/search:many", json={"agent": agent, "searches": searches})["results"]

    def context(self, agent: str, query: str, **options: Any) -> dict[str, Any]:
        """A prompt-ready context; options as POST /v1/context (max_memories, max_tokens, explain...)."""
        return self._call("POST", "/v1/context", json={"agent": agent, "query": query, **options})

    def admin_search(self, agents: list[str], query: str, **options: Any) -> dict[str, Any]:
        """Cross-tenant search; needs a client built with the service's CREDENCE_ADMIN_API_KEY."""
        return self._call("POST", "/v1/admin/search", json={"agents": agents, "query": query, **options})

    # Feedback
    def reinforce(self, agent: str, memory_id: str) -> dict[str, Any]:
        return self._call("POST", f"/v1/memories/{memory_id}/reinforce", params={"agent": agent})

    def dispute(self, agent: str, memory_id: str, reason: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/v1/memories/{memory_id}/dispute", params={"agent": agent},
                          json=set_only(reason=reason))

    def corroborate(self, agent: str, memory_id: str, source: str, ref: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/v1/memories/{memory_id}/corroborate", params={"agent": agent},
                          json={"source": set_only(source=source, ref=ref)})

    # Review: conflicts, quarantine, explanations
    def conflicts(self, agent: str, **filters: Any) -> list[dict[str, Any]]:
        """Pending conflicts; filters subject, predicate, include_resolved, limit."""
        return self._call("GET", "/v1/conflicts", params={"agent": agent, **filters})["conflicts"]

    def resolve_conflict(self, agent: str, conflict_id: str, action: str, reason: str | None = None
                         ) -> dict[str, Any]:
        return self._call("POST", f"/v1/conflicts/{conflict_id}/resolve", params={"agent": agent},
                          json=set_only(action=action, reason=reason))

    def quarantined(self, agent: str) -> Iterator[dict[str, Any]]:
        return self._pages("/v1/quarantine", {"agent": agent, "limit": 200})

    def quarantine(self, agent: str, memory_id: str, details: str | None = None,
                   reason: str | None = None) -> dict[str, Any]:
        """Take a memory out of retrieval for review; reason manual (default) or suspicious_input."""
        return self._call("POST", f"/v1/memories/{memory_id}/quarantine", params={"agent": agent},
                          json=set_only(reason=reason, details=details))

    def review(self, agent: str, memory_id: str, action: str, reason: str | None = None) -> dict[str, Any]:
        """Activate (conflicts are resolved again) or reject a quarantined memory."""
        return self._call("POST", f"/v1/quarantine/{memory_id}/review", params={"agent": agent},
                          json=set_only(action=action, reason=reason))

    def explain(self, agent: str, memory_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/memories/{memory_id}/explain", params={"agent": agent})

    def explain_supersession(self, agent: str, memory_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/memories/{memory_id}/explain/supersession", params={"agent": agent})

    # Links
    def link(self, agent: str, memory_id: str, type: str, to: str, note: str | None = None) -> list[dict[str, Any]]:
        """SUPPORTS or CAUSES from this memory to another of the same agent; returns its links."""
        body = set_only(agent=agent, type=type, to=to, note=note)
        return self._call("POST", f"/v1/memories/{memory_id}/links", json=body)["links"]

    def links(self, agent: str, memory_id: str) -> list[dict[str, Any]]:
        return self._call("GET", f"/v1/memories/{memory_id}/links", params={"agent": agent})["links"]

    def unlink(self, agent: str, memory_id: str, type: str, to: str) -> None:
        self._call("DELETE", f"/v1/memories/{memory_id}/links/{type}/{to}", params={"agent": agent})

    # Predicate schemas
    def put_predicate(self, agent: str, predicate: str, **schema: Any) -> dict[str, Any]:
        return self._call("PUT", f"/v1/predicates/{predicate}", params={"agent": agent}, json=schema)

    def predicate(self, agent: str, predicate: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/predicates/{predicate}", params={"agent": agent})

    def predicates(self, agent: str) -> list[dict[str, Any]]:
        return self._call("GET", "/v1/predicates", params={"agent": agent})["predicates"]

    # Service
    def ready(self) -> dict[str, Any]:
        return self._call("GET", "/ready")
