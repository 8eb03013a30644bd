"""The synchronous client. One method per call of the HTTP API (v1); answers are typed models
(models.py), rejections raise typed exceptions (errors.py), and a 503 is retried (retry.py).

    with Credence("http://127.0.0.1:8000", api_key="...") as api:
        api.remember("agent-1", "The user prefers dark mode", memory_type="preference")
        hits = api.search("agent-1", "UI theme").results
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx

from credence_client import endpoints as e
from credence_client.config import CONSISTENCY_HEADER, DEFAULT_TIMEOUT, DEFAULT_URL, from_environment, headers
from credence_client.endpoints import Call, Instant, set_only
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


class Credence:
    """`Credence("http://host:8000", api_key=...)`, or `Credence.from_env()`; close it, or use `with`.

    `http` may be any `httpx.Client` whose base URL is the service (the tests pass FastAPI's
    TestClient); `retry` says how a 503 is retried (`Retry(attempts=1)`: never). Every write is sent
    with an `Idempotency-Key`, the same on each retry, so a retried write never stores twice; pass
    `idempotency_key=` to a write to keep one key across your own retries (after a lost connection).
    `read_your_writes=True`: each call carries the consistency token of the latest write this client
    saw answered (`consistency_token`, which another client may be handed too), so it reads that write
    whichever service process, or cluster member, serves it (docs/scaling.md)."""

    def __init__(self, url: str = DEFAULT_URL, *, api_key: str | None = None, actor: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: Retry | None = None,
                 http: httpx.Client | None = None, read_your_writes: bool = False) -> None:
        self._headers = headers(api_key, actor)
        self.read_your_writes = read_your_writes
        self.consistency_token: str | None = None
        self._retry = retry or Retry()
        self._owned = http is None
        self._http = http if http is not None else httpx.Client(base_url=url, timeout=timeout)

    @classmethod
    def from_env(cls, **overrides: Any) -> Credence:
        """CREDENCE_URL, CREDENCE_API_KEY and CREDENCE_ACTOR; keyword arguments win."""
        return cls(**{**from_environment(), **overrides})

    def close(self) -> None:
        if self._owned:
            self._http.close()

    def __enter__(self) -> Credence:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def send(self, call: Call[T]) -> T:
        """One call, retried on 503 as the retry policy says."""
        attempt, waited, sent = 1, 0.0, call.headers(self._headers)  # one key for every attempt
        if self.read_your_writes and self.consistency_token:
            sent = {**sent, CONSISTENCY_HEADER: self.consistency_token}
        while True:
            try:
                response = self._http.request(call.method, call.path, params=call.params, json=call.json,
                                              headers=sent, **call.options())
            except httpx.TransportError as exc:
                raise ServiceUnreachable(str(self._http.base_url), exc) from exc
            if self.read_your_writes and (token := response.headers.get(CONSISTENCY_HEADER)):
                self.consistency_token = token
            wait = self._retry.delay(attempt, response.status_code, response.headers.get("retry-after"), waited)
            if wait is None:
                return call.result(response)
            time.sleep(wait)
            attempt, waited = attempt + 1, waited + wait

    def _pages(self, path: str, params: dict[str, Any]) -> Iterator[Memory]:
        cursor = None
        while True:
            page = self.send(e.page(path, params, cursor))
            yield from page.items
            cursor = page.next_cursor
            if not cursor:
                return

    def _audit_pages(self, params: dict[str, Any]) -> Iterator[Operation]:
        cursor = None
        while True:
            page = self.send(e.audit_page(params, cursor))
            yield from page.items
            cursor = page.next_cursor
            if not cursor:
                return

    def _entity_pages(self, params: dict[str, Any]) -> Iterator[Entity]:
        after = None
        while True:
            page = self.send(e.entity_page(params, after))
            yield from page.entities
            after = page.next_after
            if not after:
                return

    def _job_pages(self, agent: str | None, params: dict[str, Any]) -> Iterator[Job]:
        cursor = None
        while True:
            page = self.send(e.job_page(agent, params, cursor))
            yield from page.items
            cursor = page.next_cursor
            if not cursor:
                return

    # Memories
    def remember(self, agent: str, text: str, *, idempotency_key: str | None = None,
                 **fields: Any) -> StoredMemory | Ingested:
        """Store one memory; fields as POST /v1/memories (memory_type, tags, claim, provenance...).
        With `ingest=True` (or the agent's default) the text is read through ingestion: the answer is
        then the operations it led to (Ingested)."""
        return self.send(e.remember(agent, text, fields).keyed(idempotency_key))

    def ingest(self, agent: str, messages: list[str | dict[str, Any]], *, idempotency_key: str | None = None,
               **fields: Any) -> Ingestion:
        """Remember from what was said: messages (texts, or {role, text, at, source, ref}) are read,
        and each derived claim decided ADD / UPDATE / DELETE / NOOP; fields as POST /v1/ingest
        (context, dry_run, source, ref)."""
        return self.send(e.ingest(agent, messages, fields).keyed(idempotency_key))

    def remember_many(self, agent: str, memories: list[str | dict[str, Any]], *,
                      idempotency_key: str | None = None) -> list[StoredMemory]:
        """Store several memories in one transaction: all or none. Items are texts or field dicts."""
        return self.send(e.remember_many(agent, memories).keyed(idempotency_key))

    def get(self, agent: str, memory_id: str) -> Memory:
        return self.send(e.get(agent, memory_id))

    def memories(self, agent: str, **filters: Any) -> Iterator[Memory]:
        """Every memory that passes the filters (status, memory_type, include_*), page by page."""
        return self._pages("/v1/memories", e.memories_params(agent, filters))

    def update(self, agent: str, memory_id: str, *, idempotency_key: str | None = None,
               **changes: Any) -> PatchedMemory:
        """PATCH: only the fields given change; pass expected_version to guard against lost updates, and
        secrets="redact" to store a secret redacted rather than be refused (the answer's `redacted`)."""
        return self.send(e.update(agent, memory_id, changes).keyed(idempotency_key))

    def archive(self, agent: str, memory_id: str, *, idempotency_key: str | None = None) -> Memory:
        """Soft delete: the memory stays, archived, out of default retrieval."""
        return self.send(e.archive(agent, memory_id).keyed(idempotency_key))

    def delete(self, agent: str, memory_id: str, *, idempotency_key: str | None = None) -> Deleted:
        """Hard delete: the memory, what only it referenced, and its audit payloads."""
        return self.send(e.delete(agent, memory_id).keyed(idempotency_key))

    def history(self, agent: str, memory_id: str, *, limit: int | None = None,
                cursor: str | None = None) -> History:
        """A memory's audit trail, oldest first, one page (the whole trail up to 500 records by
        default; pass `next_cursor` back as `cursor` for the next)."""
        return self.send(e.history(agent, memory_id, limit, cursor))

    def audit(self, agent: str, **filters: Any) -> Iterator[Operation]:
        """Every audit record of the tenant that passes the filters, newest first, page by page:
        op (a name or a list of names), actor, memory_id, after and before (ISO-8601 or aware datetimes)."""
        return self._audit_pages(e.audit_params(agent, filters))

    # Durable jobs (docs/maintenance.md). `agent=None`: the scheduler's system jobs (administrator key).
    def enqueue(self, agent: str | None, kind: str, *, idempotency_key: str | None = None, **fields: Any) -> Job:
        """Enqueue a job: params, priority (1 runs first .. 10), key (the same key twice is one job),
        depends_on (job ids), max_attempts, run_at (not before)."""
        return self.send(e.enqueue(agent, kind, fields).keyed(idempotency_key))

    def job(self, agent: str | None, job_id: str) -> Job:
        return self.send(e.job(agent, job_id))

    def jobs(self, agent: str | None, **filters: Any) -> Iterator[Job]:
        """Every job that passes the filters (status, kind: a name or a list), newest first, page by page."""
        return self._job_pages(agent, e.jobs_params(agent, filters))

    def cancel_job(self, agent: str | None, job_id: str) -> Job:
        """A queued job is cancelled at once; a running one stops at its next checkpoint."""
        return self.send(e.cancel_job(agent, job_id))

    def retry_job(self, agent: str | None, job_id: str) -> Job:
        """A dead or cancelled job queued again, with fresh attempts."""
        return self.send(e.retry_job(agent, job_id))

    def wait_job(self, agent: str | None, job_id: str, *, interval: float = 1.0, timeout: float | None = None,
                 on_progress: Callable[[Job], Any] | None = None) -> Job:
        """Polls the job every `interval` seconds until it has finished (succeeded, cancelled or dead),
        calling `on_progress(job)` after each poll; JobTimeout after `timeout` seconds."""
        started = time.monotonic()
        while True:
            job = self.job(agent, job_id)
            if on_progress is not None:
                on_progress(job)
            if job.finished:
                return job
            if timeout is not None and time.monotonic() - started >= timeout:
                raise JobTimeout(job_id, timeout)
            time.sleep(interval)

    def restore(self, agent: str, memory_id: str, reason: str | None = None) -> Memory:
        """An archived memory (by an archive, the expiry or the decay job) back to the status it had."""
        return self.send(e.restore(agent, memory_id, reason))

    # Retrieval
    def search(self, agent: str, query: str, **options: Any) -> SearchResults:
        """Hybrid search; options as POST /v1/search (limit, mode, rerank, explain, filters, and
        expand={"depth": 0..3, "kinds": [...], "direction": "out"|"in"|"both"} for related memories)."""
        return self.send(e.search(agent, query, options))

    def search_many(self, agent: str, searches: list[dict[str, Any]]) -> list[SearchResults]:
        return self.send(e.search_many(agent, searches))

    def context(self, agent: str, query: str, **options: Any) -> Context:
        """A prompt-ready context; options as POST /v1/context (max_memories, max_tokens, explain...)."""
        return self.send(e.context(agent, query, options))

    def ask(self, agent: str, question: str, **options: Any) -> Answer:
        """A question as a person asks it ("where did I use to live?"), routed to its handler; options as
        POST /v1/ask (as_of, sensitivity_ceiling, limit, max_tokens, router, intent)."""
        return self.send(e.ask(agent, question, options))

    def preferences(self, agent: str) -> MemoryPreferences:
        """The agent's memory preferences (the defaults until set)."""
        return self.send(e.preferences(agent))

    def set_preferences(self, agent: str, **prefs: Any) -> MemoryPreferences:
        """Sets every memory preference (what is left out takes its default): never_store_types,
        never_store_topics, sensitivity_ceiling, context_max_tokens, type_quotas, retention_days,
        extraction_instructions, ingest_by_default."""
        return self.send(e.set_preferences(agent, prefs))

    def admin_search(self, agents: list[str], query: str, **options: Any) -> AdminSearchResults:
        """Cross-tenant search; needs a client built with the service's CREDENCE_ADMIN_API_KEY."""
        return self.send(e.admin_search(agents, query, options))

    # Feedback
    def reinforce(self, agent: str, memory_id: str) -> Feedback:
        return self.send(e.reinforce(agent, memory_id))

    def dispute(self, agent: str, memory_id: str, reason: str | None = None) -> Feedback:
        return self.send(e.dispute(agent, memory_id, reason))

    def corroborate(self, agent: str, memory_id: str, source: str, ref: str | None = None) -> Feedback:
        return self.send(e.corroborate(agent, memory_id, source, ref))

    # Review: conflicts, quarantine, explanations
    def conflicts(self, agent: str, **filters: Any) -> list[Conflict]:
        """Pending conflicts; filters subject, predicate, include_resolved, limit."""
        return self.send(e.conflicts(agent, filters))

    def resolve_conflict(self, agent: str, conflict_id: str, action: str, reason: str | None = None) -> Resolution:
        """supersede, reject or keep_both."""
        return self.send(e.resolve_conflict(agent, conflict_id, action, reason))

    def quarantined(self, agent: str) -> Iterator[Memory]:
        return self._pages("/v1/quarantine", e.quarantined_params(agent))

    def quarantine(self, agent: str, memory_id: str, details: str | None = None, reason: str | None = None) -> Memory:
        """Take a memory out of retrieval for review; reason manual (default) or suspicious_input."""
        return self.send(e.quarantine(agent, memory_id, details, reason))

    def review(self, agent: str, memory_id: str, action: str, reason: str | None = None) -> Review:
        """Activate (conflicts are resolved again) or reject a quarantined memory."""
        return self.send(e.review(agent, memory_id, action, reason))

    def explain(self, agent: str, memory_id: str) -> Explanation:
        return self.send(e.explain(agent, memory_id))

    def explain_supersession(self, agent: str, memory_id: str) -> Supersession:
        return self.send(e.explain_supersession(agent, memory_id))

    # Links
    def link(self, agent: str, memory_id: str, type: str, to: str, note: str | None = None) -> list[Link]:
        """CAUSES, SUPPORTS, PROMOTED_FROM, OUTCOME_OF or PROGRESS_ON from this memory to another of the same
        agent; returns its links."""
        return self.send(e.link(agent, memory_id, type, to, note))

    def links(self, agent: str, memory_id: str) -> list[Link]:
        return self.send(e.links(agent, memory_id))

    def unlink(self, agent: str, memory_id: str, type: str, to: str) -> None:
        self.send(e.unlink(agent, memory_id, type, to))

    # The entity graph (docs/entities.md): ids are entity ids; `entity_named` finds one by name
    def entities(self, agent: str, **filters: Any) -> Iterator[Entity]:
        """Every entity of the agent in name order, page by page; filters kind (person, place,
        organisation, product, other) and name (one entity, by name or alias)."""
        return self._entity_pages(e.entities_params(agent, filters))

    def entity_named(self, agent: str, name: str) -> Entity:
        """The entity going by this name or alias (case and spaces ignored); UnknownEntity (a NotFound) if none."""
        return self.send(e.entity_named(agent, name))

    def entity(self, agent: str, entity_id: str, *, as_of: Instant | None = None) -> EntityDetail:
        """The entity and its relationships (historical ones with current=False); with as_of, those that held then."""
        return self.send(e.entity(agent, entity_id, as_of))

    def entity_neighbourhood(self, agent: str, entity_id: str, *, depth: int | None = None,
                             as_of: Instant | None = None) -> Neighbourhood:
        """Entities and relationships within depth (1..3, default 1) hops that hold now or at as_of."""
        return self.send(e.entity_neighbourhood(agent, entity_id, depth, as_of))

    def entity_path(self, agent: str, from_id: str, to_id: str, *, max_hops: int | None = None,
                    as_of: Instant | None = None) -> EntityPath:
        """The shortest chain of relationships (max_hops 1..6, default 4) between two entities; NotFound if none."""
        return self.send(e.entity_path(agent, from_id, to_id, max_hops, as_of))

    def about(self, agent: str, entity_id: str, *, as_of: Instant | None = None) -> About:
        """What we know about the entity: its relationships by type, the memories naming it by predicate."""
        return self.send(e.about(agent, entity_id, as_of))

    def update_entity(self, agent: str, entity_id: str, *, kind: str | None = None,
                      add_aliases: list[str] | None = None) -> Entity:
        """Operators: set the kind, add known aliases (an alias naming another entity is a Conflict: merge them)."""
        return self.send(e.update_entity(agent, entity_id, kind, add_aliases))

    def merge_entities(self, agent: str, keep: str, merge: str) -> Entity:
        """Administrators: fold `merge` into `keep` (claims, relationships, evidence; its names become aliases)."""
        return self.send(e.merge_entities(agent, keep, merge))

    # Maintenance
    def consolidate(self, agent: str, dry_run: bool = False, steps: dict[str, bool] | None = None,
                    thresholds: dict[str, float] | None = None) -> Consolidation:
        """Merge near-duplicates, make coexisting rival beliefs pending conflicts, corroborate, digest old
        events, merge duplicate entities, prune past retention. `dry_run`: the plan only, nothing changes."""
        return self.send(e.consolidate(agent, dry_run, steps, thresholds))

    # Predicate schemas
    def put_predicate(self, agent: str, predicate: str, **schema: Any) -> PredicateSchema:
        return self.send(e.put_predicate(agent, predicate, schema))

    def predicate(self, agent: str, predicate: str) -> PredicateSchema:
        return self.send(e.predicate(agent, predicate))

    def predicates(self, agent: str) -> list[PredicateSchema]:
        return self.send(e.predicates(agent))

    # Service
    def ready(self) -> dict[str, Any]:
        return self.send(e.ready())


__all__ = ["Credence", "set_only"]
