"""The asynchronous client: the same calls as `Credence` (sync.py), awaited, over `httpx.AsyncClient`.

    async with AsyncCredence("http://127.0.0.1:8000") as api:
        await api.remember("agent-1", "The user prefers dark mode")
        async for memory in api.memories("agent-1"):
            ...
"""
from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import anyio
import httpx

from credence_client import endpoints as e
from credence_client.config import CONSISTENCY_HEADER, DEFAULT_TIMEOUT, DEFAULT_URL, from_environment, headers
from credence_client.endpoints import Call, Instant
from credence_client.errors import JobTimeout, ServiceUnreachable
from credence_client.models import (
    About,
    AdminSearchResults,
    Answer,
    Conflict,
    Consolidation,
    Context,
    Deleted,
    Entity,
    EntityDetail,
    EntityPath,
    Explanation,
    Feedback,
    History,
    Ingested,
    Ingestion,
    Job,
    Link,
    Memory,
    MemoryPreferences,
    Neighbourhood,
    Operation,
    PatchedMemory,
    PredicateSchema,
    Resolution,
    Review,
    SearchResults,
    StoredMemory,
    Supersession,
)
from credence_client.retry import Retry

T = TypeVar("T")


class AsyncCredence:
    """`AsyncCredence("http://host:8000", api_key=...)` or `AsyncCredence.from_env()`; `await api.aclose()`,
    or use `async with`. `http` may be any `httpx.AsyncClient` whose base URL is the service.
    `read_your_writes=True` as for `Credence`: each call carries `consistency_token`, the token of the
    latest write this client saw answered."""

    def __init__(self, url: str = DEFAULT_URL, *, api_key: str | None = None, actor: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: Retry | None = None,
                 http: httpx.AsyncClient | None = None, read_your_writes: bool = False) -> None:
        self._headers = headers(api_key, actor)
        self.read_your_writes = read_your_writes
        self.consistency_token: str | None = None
        self._retry = retry or Retry()
        self._owned = http is None
        self._http = http if http is not None else httpx.AsyncClient(base_url=url, timeout=timeout)

    @classmethod
    def from_env(cls, **overrides: Any) -> AsyncCredence:
        """CREDENCE_URL, CREDENCE_API_KEY and CREDENCE_ACTOR; keyword arguments win."""
        return cls(**{**from_environment(), **overrides})

    async def aclose(self) -> None:
        if self._owned:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncCredence:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def send(self, call: Call[T]) -> T:
        """One call, retried on 503 as the retry policy says."""
        attempt, waited, sent = 1, 0.0, call.headers(self._headers)  # one key for every attempt
        if self.read_your_writes and self.consistency_token:
            sent = {**sent, CONSISTENCY_HEADER: self.consistency_token}
        while True:
            try:
                response = await self._http.request(call.method, call.path, params=call.params, json=call.json,
                                                    headers=sent, **call.options())
            except httpx.TransportError as exc:
                raise ServiceUnreachable(str(self._http.base_url), exc) from exc
            if self.read_your_writes and (token := response.headers.get(CONSISTENCY_HEADER)):
                self.consistency_token = token
            wait = self._retry.delay(attempt, response.status_code, response.headers.get("retry-after"), waited)
            if wait is None:
                return call.result(response)
            await anyio.sleep(wait)
            attempt, waited = attempt + 1, waited + wait

    async def _pages(self, path: str, params: dict[str, Any]) -> AsyncIterator[Memory]:
        cursor = None
        while True:
            page = await self.send(e.page(path, params, cursor))
            for item in page.items:
                yield item
            cursor = page.next_cursor
            if not cursor:
                return

    async def _audit_pages(self, params: dict[str, Any]) -> AsyncIterator[Operation]:
        cursor = None
        while True:
            page = await self.send(e.audit_page(params, cursor))
            for item in page.items:
                yield item
            cursor = page.next_cursor
            if not cursor:
                return

    async def _entity_pages(self, params: dict[str, Any]) -> AsyncIterator[Entity]:
        after = None
        while True:
            page = await self.send(e.entity_page(params, after))
            for item in page.entities:
                yield item
            after = page.next_after
            if not after:
                return

    async def _job_pages(self, agent: str | None, params: dict[str, Any]) -> AsyncIterator[Job]:
        cursor = None
        while True:
            page = await self.send(e.job_page(agent, params, cursor))
            for item in page.items:
                yield item
            cursor = page.next_cursor
            if not cursor:
                return

    # Memories
    async def remember(self, agent: str, text: str, *, idempotency_key: str | None = None,
                       **fields: Any) -> StoredMemory | Ingested:
        """Store one memory; fields as POST /v1/memories (memory_type, tags, claim, provenance...).
        With `ingest=True` (or the agent's default) the text is read through ingestion: the answer is
        then the operations it led to (Ingested)."""
        return await self.send(e.remember(agent, text, fields).keyed(idempotency_key))

    async def ingest(self, agent: str, messages: list[str | dict[str, Any]], *, idempotency_key: str | None = None,
                     **fields: Any) -> Ingestion:
        """Remember from what was said: messages (texts, or {role, text, at, source, ref}) are read,
        and each derived claim decided ADD / UPDATE / DELETE / NOOP; fields as POST /v1/ingest
        (context, dry_run, source, ref)."""
        return await self.send(e.ingest(agent, messages, fields).keyed(idempotency_key))

    async def remember_many(self, agent: str, memories: list[str | dict[str, Any]], *,
                            idempotency_key: str | None = None) -> list[StoredMemory]:
        """Store several memories in one transaction: all or none. Items are texts or field dicts."""
        return await self.send(e.remember_many(agent, memories).keyed(idempotency_key))

    async def get(self, agent: str, memory_id: str) -> Memory:
        return await self.send(e.get(agent, memory_id))

    def memories(self, agent: str, **filters: Any) -> AsyncIterator[Memory]:
        """Every memory that passes the filters (status, memory_type, include_*), page by page."""
        return self._pages("/v1/memories", e.memories_params(agent, filters))

    async def update(self, agent: str, memory_id: str, *, idempotency_key: str | None = None,
                     **changes: Any) -> PatchedMemory:
        """PATCH: only the fields given change; pass expected_version to guard against lost updates, and
        secrets="redact" to store a secret redacted rather than be refused (the answer's `redacted`)."""
        return await self.send(e.update(agent, memory_id, changes).keyed(idempotency_key))

    async def archive(self, agent: str, memory_id: str, *, idempotency_key: str | None = None) -> Memory:
        """Soft delete: the memory stays, archived, out of default retrieval."""
        return await self.send(e.archive(agent, memory_id).keyed(idempotency_key))

    async def delete(self, agent: str, memory_id: str, *, idempotency_key: str | None = None) -> Deleted:
        """Hard delete: the memory, what only it referenced, and its audit payloads."""
        return await self.send(e.delete(agent, memory_id).keyed(idempotency_key))

    async def history(self, agent: str, memory_id: str, *, limit: int | None = None,
                      cursor: str | None = None) -> History:
        """A memory's audit trail, oldest first, one page (the whole trail up to 500 records by
        default; pass `next_cursor` back as `cursor` for the next)."""
        return await self.send(e.history(agent, memory_id, limit, cursor))

    def audit(self, agent: str, **filters: Any) -> AsyncIterator[Operation]:
        """Every audit record of the tenant that passes the filters, newest first, page by page:
        op (a name or a list of names), actor, memory_id, after and before (ISO-8601 or aware datetimes)."""
        return self._audit_pages(e.audit_params(agent, filters))

    # Durable jobs (docs/maintenance.md). `agent=None`: the scheduler's system jobs (administrator key).
    async def enqueue(self, agent: str | None, kind: str, *, idempotency_key: str | None = None, **fields: Any) -> Job:
        """Enqueue a job: params, priority (1 runs first .. 10), key (the same key twice is one job),
        depends_on (job ids), max_attempts, run_at (not before)."""
        return await self.send(e.enqueue(agent, kind, fields).keyed(idempotency_key))

    async def job(self, agent: str | None, job_id: str) -> Job:
        return await self.send(e.job(agent, job_id))

    def jobs(self, agent: str | None, **filters: Any) -> AsyncIterator[Job]:
        """Every job that passes the filters (status, kind: a name or a list), newest first, page by page."""
        return self._job_pages(agent, e.jobs_params(agent, filters))

    async def cancel_job(self, agent: str | None, job_id: str) -> Job:
        """A queued job is cancelled at once; a running one stops at its next checkpoint."""
        return await self.send(e.cancel_job(agent, job_id))

    async def retry_job(self, agent: str | None, job_id: str) -> Job:
        """A dead or cancelled job queued again, with fresh attempts."""
        return await self.send(e.retry_job(agent, job_id))

    async def wait_job(self, agent: str | None, job_id: str, *, interval: float = 1.0, timeout: float | None = None,
                 on_progress: Callable[[Job], Any] | None = None) -> Job:
        """Polls the job every `interval` seconds until it has finished (succeeded, cancelled or dead),
        calling `on_progress(job)` after each poll; JobTimeout after `timeout` seconds."""
        started = time.monotonic()
        while True:
            job = await self.job(agent, job_id)
            if on_progress is not None:
                on_progress(job)
            if job.finished:
                return job
            if timeout is not None and time.monotonic() - started >= timeout:
                raise JobTimeout(job_id, timeout)
            await anyio.sleep(interval)

    async def restore(self, agent: str, memory_id: str, reason: str | None = None) -> Memory:
        """An archived memory (by an archive, the expiry or the decay job) back to the status it had."""
        return await self.send(e.restore(agent, memory_id, reason))

    # Retrieval
    async def search(self, agent: str, query: str, **options: Any) -> SearchResults:
        """Hybrid search; options as POST /v1/search (limit, mode, rerank, explain, filters, and
        expand={"depth": 0..3, "kinds": [...], "direction": "out"|"in"|"both"} for related memories)."""
        return await self.send(e.search(agent, query, options))

    async def search_many(self, agent: str, searches: list[dict[str, Any]]) -> list[SearchResults]:
        return await self.send(e.search_many(agent, searches))

    async def context(self, agent: str, query: str, **options: Any) -> Context:
        """A prompt-ready context; options as POST /v1/context (max_memories, max_tokens, explain...)."""
        return await self.send(e.context(agent, query, options))

    async def ask(self, agent: str, question: str, **options: Any) -> Answer:
        """A question as a person asks it ("where did I use to live?"), routed to its handler; options as
        POST /v1/ask (as_of, sensitivity_ceiling, limit, max_tokens, router, intent)."""
        return await self.send(e.ask(agent, question, options))

    async def preferences(self, agent: str) -> MemoryPreferences:
        """The agent's memory preferences (the defaults until set)."""
        return await self.send(e.preferences(agent))

    async def set_preferences(self, agent: str, **prefs: Any) -> MemoryPreferences:
        """Sets every memory preference (what is left out takes its default): never_store_types,
        never_store_topics, sensitivity_ceiling, context_max_tokens, type_quotas, retention_days,
        extraction_instructions, ingest_by_default."""
        return await self.send(e.set_preferences(agent, prefs))

    async def admin_search(self, agents: list[str], query: str, **options: Any) -> AdminSearchResults:
        """Cross-tenant search; needs a client built with the service's CREDENCE_ADMIN_API_KEY."""
        return await self.send(e.admin_search(agents, query, options))

    # Feedback
    async def reinforce(self, agent: str, memory_id: str) -> Feedback:
        return await self.send(e.reinforce(agent, memory_id))

    async def dispute(self, agent: str, memory_id: str, reason: str | None = None) -> Feedback:
        return await self.send(e.dispute(agent, memory_id, reason))

    async def corroborate(self, agent: str, memory_id: str, source: str, ref: str | None = None) -> Feedback:
        return await self.send(e.corroborate(agent, memory_id, source, ref))

    # Review: conflicts, quarantine, explanations
    async def conflicts(self, agent: str, **filters: Any) -> list[Conflict]:
        """Pending conflicts; filters subject, predicate, include_resolved, limit."""
        return await self.send(e.conflicts(agent, filters))

    async def resolve_conflict(self, agent: str, conflict_id: str, action: str,
                               reason: str | None = None) -> Resolution:
        """supersede, reject or keep_both."""
        return await self.send(e.resolve_conflict(agent, conflict_id, action, reason))

    def quarantined(self, agent: str) -> AsyncIterator[Memory]:
        return self._pages("/v1/quarantine", e.quarantined_params(agent))

    async def quarantine(self, agent: str, memory_id: str, details: str | None = None,
                         reason: str | None = None) -> Memory:
        """Take a memory out of retrieval for review; reason manual (default) or suspicious_input."""
        return await self.send(e.quarantine(agent, memory_id, details, reason))

    async def review(self, agent: str, memory_id: str, action: str, reason: str | None = None) -> Review:
        """Activate (conflicts are resolved again) or reject a quarantined memory."""
        return await self.send(e.review(agent, memory_id, action, reason))

    async def explain(self, agent: str, memory_id: str) -> Explanation:
        return await self.send(e.explain(agent, memory_id))

    async def explain_supersession(self, agent: str, memory_id: str) -> Supersession:
        return await self.send(e.explain_supersession(agent, memory_id))

    # Links
    async def link(self, agent: str, memory_id: str, type: str, to: str, note: str | None = None) -> list[Link]:
        """CAUSES, SUPPORTS, PROMOTED_FROM, OUTCOME_OF or PROGRESS_ON from this memory to another of the same
        agent; returns its links."""
        return await self.send(e.link(agent, memory_id, type, to, note))

    async def links(self, agent: str, memory_id: str) -> list[Link]:
        return await self.send(e.links(agent, memory_id))

    async def unlink(self, agent: str, memory_id: str, type: str, to: str) -> None:
        await self.send(e.unlink(agent, memory_id, type, to))

    # The entity graph (docs/entities.md): ids are entity ids; `entity_named` finds one by name
    def entities(self, agent: str, **filters: Any) -> AsyncIterator[Entity]:
        """Every entity of the agent in name order, page by page; filters kind (person, place,
        organisation, product, other) and name (one entity, by name or alias)."""
        return self._entity_pages(e.entities_params(agent, filters))

    async def entity_named(self, agent: str, name: str) -> Entity:
        """The entity going by this name or alias (case and spaces ignored); UnknownEntity (a NotFound) if none."""
        return await self.send(e.entity_named(agent, name))

    async def entity(self, agent: str, entity_id: str, *, as_of: Instant | None = None) -> EntityDetail:
        """The entity and its relationships (historical ones with current=False); with as_of, those that held then."""
        return await self.send(e.entity(agent, entity_id, as_of))

    async def entity_neighbourhood(self, agent: str, entity_id: str, *, depth: int | None = None,
                                   as_of: Instant | None = None) -> Neighbourhood:
        """Entities and relationships within depth (1..3, default 1) hops that hold now or at as_of."""
        return await self.send(e.entity_neighbourhood(agent, entity_id, depth, as_of))

    async def entity_path(self, agent: str, from_id: str, to_id: str, *, max_hops: int | None = None,
                          as_of: Instant | None = None) -> EntityPath:
        """The shortest chain of relationships (max_hops 1..6, default 4) between two entities; NotFound if none."""
        return await self.send(e.entity_path(agent, from_id, to_id, max_hops, as_of))

    async def about(self, agent: str, entity_id: str, *, as_of: Instant | None = None) -> About:
        """What we know about the entity: its relationships by type, the memories naming it by predicate."""
        return await self.send(e.about(agent, entity_id, as_of))

    async def update_entity(self, agent: str, entity_id: str, *, kind: str | None = None,
                            add_aliases: list[str] | None = None) -> Entity:
        """Operators: set the kind, add known aliases (an alias naming another entity is a Conflict: merge them)."""
        return await self.send(e.update_entity(agent, entity_id, kind, add_aliases))

    async def merge_entities(self, agent: str, keep: str, merge: str) -> Entity:
        """Administrators: fold `merge` into `keep` (claims, relationships, evidence; its names become aliases)."""
        return await self.send(e.merge_entities(agent, keep, merge))

    # Maintenance
    async def consolidate(self, agent: str, dry_run: bool = False, steps: dict[str, bool] | None = None,
                    thresholds: dict[str, float] | None = None) -> Consolidation:
        """Merge near-duplicates, make coexisting rival beliefs pending conflicts, corroborate, digest old
        events, merge duplicate entities, prune past retention. `dry_run`: the plan only, nothing changes."""
        return await self.send(e.consolidate(agent, dry_run, steps, thresholds))

    # Predicate schemas
    async def put_predicate(self, agent: str, predicate: str, **schema: Any) -> PredicateSchema:
        return await self.send(e.put_predicate(agent, predicate, schema))

    async def predicate(self, agent: str, predicate: str) -> PredicateSchema:
        return await self.send(e.predicate(agent, predicate))

    async def predicates(self, agent: str) -> list[PredicateSchema]:
        return await self.send(e.predicates(agent))

    # Service
    async def ready(self) -> dict[str, Any]:
        return await self.send(e.ready())

