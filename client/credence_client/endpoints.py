"""The HTTP API (v1), one function per call: what to send and how to read the answer. The sync and the
async clients (sync.py, aio.py) send the same `Call`s, so a route's path, body and answer type have
one home here. Fields are keyword arguments passed through as the request's JSON: the service
validates them, and its own defaults apply to what a caller leaves out."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter

from credence_client.errors import CredenceAPIError, UnknownEntity
from credence_client.models import (
    About,
    AdminSearchResults,
    Answer,
    AuditPage,
    Conflict,
    Consolidation,
    Context,
    Deleted,
    Entity,
    EntityDetail,
    EntityPage,
    EntityPath,
    Explanation,
    Feedback,
    History,
    Ingested,
    Ingestion,
    Job,
    JobPage,
    Link,
    Memory,
    MemoryPage,
    MemoryPreferences,
    Neighbourhood,
    PatchedMemory,
    PredicateSchema,
    Resolution,
    Review,
    SearchResults,
    StoredMemory,
    Supersession,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
Instant = str | datetime  # an ISO-8601 string, or a timezone-aware datetime


def set_only(**fields: Any) -> dict[str, Any]:
    """Leave out what the caller did not set (None), so the service's defaults apply."""
    return {k: v for k, v in fields.items() if v is not None}


def _raw(body: Any) -> Any:
    return body


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    params: dict[str, Any] | None = None
    json: Any = None
    read: Callable[[Any], T] = field(default=_raw)  # the answer's JSON -> what the method returns
    idempotency_key: str | None = None  # a write's own key; a write without one gets a fresh one per call
    timeout: float | None = None  # seconds, for a call that may take longer than the client's default

    def options(self) -> dict[str, Any]:
        """The request's own options: its timeout, when it has one (else the client's)."""
        return {"timeout": self.timeout} if self.timeout is not None else {}

    def keyed(self, key: str | None) -> Call[T]:
        return self if key is None else replace(self, idempotency_key=key)

    def headers(self, base: dict[str, str]) -> dict[str, str]:
        """The headers of every attempt of this call. A write always carries an `Idempotency-Key` (the
        caller's, or a fresh UUID for this call), so a retry after a 503 or a timeout can never store
        twice: the service replays the first answer instead (docs/operations.md, Idempotent retries)."""
        if self.method == "GET":
            return base
        return {**base, "Idempotency-Key": self.idempotency_key or str(uuid.uuid4())}

    def result(self, response: httpx.Response) -> T:
        """The answer read, or the problem raised as its CredenceAPIError subclass."""
        if response.status_code >= 400:
            raise CredenceAPIError.of(response)
        return self.read(response.json() if response.content else None)


def _model(model: type[M]) -> Callable[[Any], M]:
    def read(body: Any) -> M:
        return model.model_validate(body)
    read.model, read.key = model, None  # type: ignore[attr-defined]  # what the schema test checks
    return read


def _items(model: type[M], key: str) -> Callable[[Any], list[M]]:
    adapter = TypeAdapter(list[model])  # type: ignore[valid-type]

    def read(body: Any) -> list[M]:
        return adapter.validate_python(body[key])
    read.model, read.key = model, key  # type: ignore[attr-defined]
    return read


def _named(name: str) -> Callable[[Any], Entity]:
    """The one entity a name lookup found, or UnknownEntity (the service answers an empty list)."""
    adapter = TypeAdapter(list[Entity])

    def read(body: Any) -> Entity:
        found = adapter.validate_python(body["entities"])
        if not found:
            raise UnknownEntity(name)
        return found[0]
    read.model, read.key = Entity, "entities"  # type: ignore[attr-defined]
    return read


def _instant(value: Instant | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value


def _seg(value: str) -> str:
    """One path segment, escaped: an id a model made up ("../conflicts") cannot reach another route."""
    return quote(str(value), safe="")


def _memory(agent: str, memory_id: str, action: str = "") -> tuple[str, dict[str, Any]]:
    return f"/v1/memories/{_seg(memory_id)}{action}", {"agent": agent}


# Memories
def remember(agent: str, text: str, fields: dict[str, Any]) -> Call[StoredMemory | Ingested]:
    return Call("POST", "/v1/memories", json={"agent": agent, "text": text, **fields}, read=_stored_or_ingested)


def _stored_or_ingested(body: Any) -> StoredMemory | Ingested:
    """A store answers the memory, or, read through ingestion (`ingest`), the operations."""
    return Ingested.model_validate(body) if body.get("ingested") else StoredMemory.model_validate(body)


_stored_or_ingested.model, _stored_or_ingested.key = StoredMemory, None  # type: ignore[attr-defined]


def ingest(agent: str, messages: list[str | dict[str, Any]], fields: dict[str, Any]) -> Call[Ingestion]:
    """Messages are texts (the user's) or {role, text, at, source, ref}; fields as POST /v1/ingest."""
    items = [{"text": m} if isinstance(m, str) else m for m in messages]
    return Call("POST", "/v1/ingest", json={"agent": agent, "messages": items, **fields}, read=_model(Ingestion))


def remember_many(agent: str, memories: list[str | dict[str, Any]]) -> Call[list[StoredMemory]]:
    items = [{"agent": agent, **({"text": m} if isinstance(m, str) else m)} for m in memories]
    return Call("POST", "/v1/memories:batch", json={"memories": items}, read=_items(StoredMemory, "memories"))


def get(agent: str, memory_id: str) -> Call[Memory]:
    path, params = _memory(agent, memory_id)
    return Call("GET", path, params, read=_model(Memory))


def page(path: str, params: dict[str, Any], cursor: str | None) -> Call[MemoryPage]:
    """One page of a listing; the clients follow `next_cursor` to the end."""
    return Call("GET", path, set_only(**params, cursor=cursor), read=_model(MemoryPage))


def memories_params(agent: str, filters: dict[str, Any]) -> dict[str, Any]:
    return {"agent": agent, "limit": 200, **filters}


def update(agent: str, memory_id: str, changes: dict[str, Any]) -> Call[PatchedMemory]:
    """`changes` may hold `secrets: "redact"` (docs/secrets.md); the answer lists what was redacted."""
    path, params = _memory(agent, memory_id)
    return Call("PATCH", path, params, json=changes, read=_model(PatchedMemory))


def archive(agent: str, memory_id: str) -> Call[Memory]:
    path, params = _memory(agent, memory_id)
    return Call("DELETE", path, params, read=_model(Memory))


def delete(agent: str, memory_id: str) -> Call[Deleted]:
    path, params = _memory(agent, memory_id)
    return Call("DELETE", path, {**params, "hard": "true"}, read=_model(Deleted))


def history(agent: str, memory_id: str, limit: int | None = None, cursor: str | None = None) -> Call[History]:
    """A memory's audit trail, oldest first; without a limit, the whole trail up to the service's page."""
    path, params = _memory(agent, memory_id, "/history")
    return Call("GET", path, {**params, **set_only(limit=limit, cursor=cursor)}, read=_model(History))


# The audit trail
def audit_params(agent: str, filters: dict[str, Any]) -> dict[str, Any]:
    """GET /v1/audit's query: op (a name or a list), actor, memory_id, after, before (ISO-8601
    strings or aware datetimes), limit."""
    out = {"agent": agent, "limit": 500, **set_only(**filters)}
    for name in ("after", "before"):
        if isinstance(out.get(name), datetime):
            out[name] = out[name].isoformat()
    return out


def audit_page(params: dict[str, Any], cursor: str | None) -> Call[AuditPage]:
    """One page of a tenant's audit records, newest first; the clients follow `next_cursor` to the end."""
    return Call("GET", "/v1/audit", set_only(**params, cursor=cursor), read=_model(AuditPage))


# Retrieval
def search(agent: str, query: str, options: dict[str, Any]) -> Call[SearchResults]:
    return Call("POST", "/v1/search", json={"agent": agent, "query": query, **options}, read=_model(SearchResults))


def search_many(agent: str, searches: list[dict[str, Any]]) -> Call[list[SearchResults]]:
    return Call("POST", "/v1/search:many", json={"agent": agent, "searches": searches},
                read=_items(SearchResults, "results"))


def context(agent: str, query: str, options: dict[str, Any]) -> Call[Context]:
    return Call("POST", "/v1/context", json={"agent": agent, "query": query, **options}, read=_model(Context))


# Asking and memory preferences
def ask(agent: str, question: str, options: dict[str, Any]) -> Call[Answer]:
    return Call("POST", "/v1/ask", json={"agent": agent, "question": question, **options}, read=_model(Answer))


def preferences(agent: str) -> Call[MemoryPreferences]:
    return Call("GET", "/v1/preferences", {"agent": agent}, read=_model(MemoryPreferences))


def set_preferences(agent: str, prefs: dict[str, Any]) -> Call[MemoryPreferences]:
    return Call("PUT", "/v1/preferences", json={"agent": agent, **prefs}, read=_model(MemoryPreferences))


def admin_search(agents: list[str], query: str, options: dict[str, Any]) -> Call[AdminSearchResults]:
    return Call("POST", "/v1/admin/search", json={"agents": agents, "query": query, **options},
                read=_model(AdminSearchResults))


# Feedback
def reinforce(agent: str, memory_id: str) -> Call[Feedback]:
    path, params = _memory(agent, memory_id, "/reinforce")
    return Call("POST", path, params, read=_model(Feedback))


def dispute(agent: str, memory_id: str, reason: str | None) -> Call[Feedback]:
    path, params = _memory(agent, memory_id, "/dispute")
    return Call("POST", path, params, json=set_only(reason=reason), read=_model(Feedback))


def corroborate(agent: str, memory_id: str, source: str, ref: str | None) -> Call[Feedback]:
    path, params = _memory(agent, memory_id, "/corroborate")
    return Call("POST", path, params, json={"source": set_only(source=source, ref=ref)}, read=_model(Feedback))


# Review: conflicts, quarantine, explanations
def conflicts(agent: str, filters: dict[str, Any]) -> Call[list[Conflict]]:
    return Call("GET", "/v1/conflicts", {"agent": agent, **filters}, read=_items(Conflict, "conflicts"))


def resolve_conflict(agent: str, conflict_id: str, action: str, reason: str | None) -> Call[Resolution]:
    return Call("POST", f"/v1/conflicts/{_seg(conflict_id)}/resolve", {"agent": agent},
                json=set_only(action=action, reason=reason), read=_model(Resolution))


def quarantined_params(agent: str) -> dict[str, Any]:
    return {"agent": agent, "limit": 200}


def quarantine(agent: str, memory_id: str, details: str | None, reason: str | None) -> Call[Memory]:
    path, params = _memory(agent, memory_id, "/quarantine")
    return Call("POST", path, params, json=set_only(reason=reason, details=details), read=_model(Memory))


def review(agent: str, memory_id: str, action: str, reason: str | None) -> Call[Review]:
    return Call("POST", f"/v1/quarantine/{_seg(memory_id)}/review", {"agent": agent},
                json=set_only(action=action, reason=reason), read=_model(Review))


def explain(agent: str, memory_id: str) -> Call[Explanation]:
    path, params = _memory(agent, memory_id, "/explain")
    return Call("GET", path, params, read=_model(Explanation))


def explain_supersession(agent: str, memory_id: str) -> Call[Supersession]:
    path, params = _memory(agent, memory_id, "/explain/supersession")
    return Call("GET", path, params, read=_model(Supersession))


# Links
def link(agent: str, memory_id: str, type: str, to: str, note: str | None) -> Call[list[Link]]:
    return Call("POST", f"/v1/memories/{_seg(memory_id)}/links",
                json=set_only(agent=agent, type=type, to=to, note=note), read=_items(Link, "links"))


def links(agent: str, memory_id: str) -> Call[list[Link]]:
    path, params = _memory(agent, memory_id, "/links")
    return Call("GET", path, params, read=_items(Link, "links"))


def unlink(agent: str, memory_id: str, type: str, to: str) -> Call[None]:
    return Call("DELETE", f"/v1/memories/{_seg(memory_id)}/links/{_seg(type)}/{_seg(to)}", {"agent": agent},
                read=lambda _: None)


# The entity graph (docs/entities.md)
def entities_params(agent: str, filters: dict[str, Any]) -> dict[str, Any]:
    return {"agent": agent, "limit": 500, **filters}


def entity_page(params: dict[str, Any], after: str | None) -> Call[EntityPage]:
    """One page of a tenant's entities in name order; the clients follow `next_after` to the end."""
    return Call("GET", "/v1/entities", set_only(**params, after=after), read=_model(EntityPage))


def entity_named(agent: str, name: str) -> Call[Entity]:
    """The entity going by `name` or one of its aliases (case and spaces ignored), or UnknownEntity."""
    return Call("GET", "/v1/entities", {"agent": agent, "name": name}, read=_named(name))


def entity(agent: str, entity_id: str, as_of: Instant | None) -> Call[EntityDetail]:
    return Call("GET", f"/v1/entities/{_seg(entity_id)}", set_only(agent=agent, as_of=_instant(as_of)),
                read=_model(EntityDetail))


def entity_neighbourhood(agent: str, entity_id: str, depth: int | None, as_of: Instant | None) -> Call[Neighbourhood]:
    return Call("GET", f"/v1/entities/{_seg(entity_id)}/neighbourhood",
                set_only(agent=agent, depth=depth, as_of=_instant(as_of)), read=_model(Neighbourhood))


def entity_path(agent: str, from_id: str, to_id: str, max_hops: int | None,
                as_of: Instant | None) -> Call[EntityPath]:
    return Call("GET", f"/v1/entities/{_seg(from_id)}/path/{_seg(to_id)}",
                set_only(agent=agent, max_hops=max_hops, as_of=_instant(as_of)), read=_model(EntityPath))


def about(agent: str, entity_id: str, as_of: Instant | None) -> Call[About]:
    return Call("GET", f"/v1/entities/{_seg(entity_id)}/about", set_only(agent=agent, as_of=_instant(as_of)),
                read=_model(About))


def update_entity(agent: str, entity_id: str, kind: str | None, add_aliases: list[str] | None) -> Call[Entity]:
    return Call("PATCH", f"/v1/entities/{_seg(entity_id)}",
                json=set_only(agent=agent, kind=kind, add_aliases=add_aliases), read=_model(Entity))


def merge_entities(agent: str, keep: str, merge: str) -> Call[Entity]:
    return Call("POST", "/v1/entities:merge", json={"agent": agent, "keep": keep, "merge": merge}, read=_model(Entity))


# Predicate schemas
CONSOLIDATE_TIMEOUT = 900.0


def consolidate(agent: str, dry_run: bool, steps: dict[str, bool] | None,
                thresholds: dict[str, float] | None) -> Call[Consolidation]:
    body = {"agent": agent, "dry_run": dry_run, **set_only(steps=steps, thresholds=thresholds)}
    # A forced run of a large tenant takes a minute or more (docs/consolidation.md).
    return Call("POST", "/v1/consolidate", json=body, read=_model(Consolidation), timeout=CONSOLIDATE_TIMEOUT)


def put_predicate(agent: str, predicate: str, schema: dict[str, Any]) -> Call[PredicateSchema]:
    return Call("PUT", f"/v1/predicates/{_seg(predicate)}", {"agent": agent}, json=schema, read=_model(PredicateSchema))


def predicate(agent: str, predicate: str) -> Call[PredicateSchema]:
    return Call("GET", f"/v1/predicates/{_seg(predicate)}", {"agent": agent}, read=_model(PredicateSchema))


def predicates(agent: str) -> Call[list[PredicateSchema]]:
    return Call("GET", "/v1/predicates", {"agent": agent}, read=_items(PredicateSchema, "predicates"))


# Durable jobs (docs/maintenance.md): a tenant's at /v1/jobs; with agent None, the system jobs of
# the scheduler at /v1/admin/jobs (the administrator key).
def _jobs(agent: str | None, tail: str = "") -> tuple[str, dict[str, Any]]:
    if agent is None:
        return f"/v1/admin/jobs{tail}", {}
    return f"/v1/jobs{tail}", {"agent": agent}


def enqueue(agent: str | None, kind: str, fields: dict[str, Any]) -> Call[Job]:
    """`fields`: params, priority (1 first .. 10), key (idempotency), depends_on, max_attempts, run_at."""
    path, _ = _jobs(agent)
    return Call("POST", path, json={**({"agent": agent} if agent is not None else {}), "kind": kind, **fields},
                read=_model(Job))


def job(agent: str | None, job_id: str) -> Call[Job]:
    path, params = _jobs(agent, f"/{_seg(job_id)}")
    return Call("GET", path, params or None, read=_model(Job))


def jobs_params(agent: str | None, filters: dict[str, Any]) -> dict[str, Any]:
    """GET /v1/jobs's query: status and kind (a name or a list), limit."""
    return {**_jobs(agent)[1], "limit": 200, **set_only(**filters)}


def job_page(agent: str | None, params: dict[str, Any], cursor: str | None) -> Call[JobPage]:
    """One page of jobs, newest first; the clients follow `next_cursor` to the end."""
    return Call("GET", _jobs(agent)[0], set_only(**params, cursor=cursor), read=_model(JobPage))


def cancel_job(agent: str | None, job_id: str) -> Call[Job]:
    path, params = _jobs(agent, f"/{_seg(job_id)}/cancel")
    return Call("POST", path, params or None, read=_model(Job))


def retry_job(agent: str | None, job_id: str) -> Call[Job]:
    path, params = _jobs(agent, f"/{_seg(job_id)}/retry")
    return Call("POST", path, params or None, read=_model(Job))


def restore(agent: str, memory_id: str, reason: str | None) -> Call[Memory]:
    """An archived memory (an archive, an expiry, a decay) back to the status it had."""
    path, params = _memory(agent, memory_id, "/restore")
    return Call("POST", path, params, json=set_only(reason=reason), read=_model(Memory))


# Service
def ready() -> Call[dict[str, Any]]:
    return Call("GET", "/ready")
