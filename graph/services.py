"""Wires the backend, the embedder and the domain services together, once per process."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graph.asking import AskService, LlmRouter, intents
from graph.asking import route as route_question
from graph.audit import AuditService
from graph.beliefs.conflicts import ConflictService
from graph.beliefs.explain import ExplainService
from graph.beliefs.feedback import FeedbackService
from graph.beliefs.predicates import PredicateService
from graph.beliefs.quarantine import QuarantineService
from graph.consolidation import ConsolidationService, Defaults, Extractive, LlmSummariser
from graph.consolidation import check_params as consolidation_params
from graph.consolidation import handler as consolidation_job
from graph.context.service import ContextService
from graph.context.tokens import estimator_for
from graph.core.errors import CredenceError
from graph.core.vocab import KIND_CONSOLIDATE
from graph.embedding.encoder import AsyncEncoder, Embedder, load_embedder
from graph.entities.service import EntityService
from graph.idempotency.service import IdempotencyService
from graph.ingestion import kind_classifier, slot_classifier
from graph.ingestion.defaults import PreferredDefault
from graph.ingestion.llm import llm_steps
from graph.ingestion.service import IngestService
from graph.ingestion.steps import RuleExtractor
from graph.keys.service import KeyService
from graph.links.service import LinkService
from graph.llm import ChatClient
from graph.maintenance import Maintenance
from graph.memories.access import AccessTracker
from graph.memories.service import MemoryService
from graph.observability.metrics import unwatch_backend_process, watch_backend_process
from graph.preferences import PreferenceService
from graph.retrieval.cosine_scale import CosineScale
from graph.retrieval.service import RetrievalService
from graph.settings import Settings
from graph.store.backends.connect import Backend, launch, wait_ready
from graph.store.backends.supervisor import Supervisor
from graph.store.compaction import Compaction, compact
from graph.store.gateway import GraphRunner, RetryPolicy
from graph.store.registry import QueryRegistry
from graph.store.schema import apply_schema, check_schema
from graph.transfer.export import ExportService
from graph.transfer.importer import ImportService
from graph.writes.service import WriteService

log = logging.getLogger(__name__)
READY_PING_SECONDS = 0.9


def chat_model(settings: Settings) -> ChatClient | None:
    """The one chat-model client (CREDENCE_LLM_*) that the features switched on share; None when no
    feature uses it (settings refuse a switch on without an endpoint)."""
    if not settings.llm_features:
        return None
    assert settings.llm_base_url and settings.llm_model
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    return ChatClient(settings.llm_base_url, settings.llm_model, api_key=key, timeout=settings.llm_timeout,
                      mode=settings.llm_mode)


@dataclass
class Services:
    settings: Settings
    backend: Backend
    runner: GraphRunner
    encoder: AsyncEncoder
    memories: MemoryService
    writes: WriteService
    retrieval: RetrievalService
    access: AccessTracker
    predicates: PredicateService
    feedback: FeedbackService
    conflicts: ConflictService
    quarantine: QuarantineService
    explain: ExplainService
    context: ContextService
    links: LinkService
    entities: EntityService
    keys: KeyService
    idempotency: IdempotencyService
    exports: ExportService
    imports: ImportService
    audit: AuditService
    preferences: PreferenceService
    ask: AskService
    maintenance: Maintenance
    consolidation: ConsolidationService
    ingestion: IngestService
    schema_applied: bool = field(default=False)
    supervisor: Supervisor | None = None  # for a database process this service owns
    backend_pid: Callable[[], int | None] | None = None  # that process, as /metrics watches it

    @classmethod
    async def start(cls, settings: Settings, embedder: Embedder | None = None, *, schema: bool = True) -> Services:
        """Start the backend and load the model side by side, then apply the schema.

        Call from the thread that outlives the service (the embedded backend dies with it).
        `schema=False` (a worker process apart from the API): the database's schema must be there,
        applied by a service; this process only checks it."""
        registry = QueryRegistry()
        backend = launch(settings)
        ready = asyncio.ensure_future(wait_ready(backend, registry["store/meta/ping"], settings.embedded_start_timeout))
        try:
            load = None if embedder else asyncio.to_thread(
                load_embedder, settings.embedding_model, settings.data_dir / "models", settings.embedding_runtime,
                settings.embedding_batch_size)
            if load is not None:
                embedder, _ = await asyncio.gather(load, ready)
            else:
                await ready
            assert embedder is not None
            # Start-up runs without the request timeout: the schema and its migrations may take longer.
            runner = GraphRunner(backend.driver, backend.database, registry, retry=RetryPolicy(
                read=settings.read_retry_time, write=settings.write_retry_time,
                background=settings.background_retry_time, first_delay=settings.retry_first_delay))
            if schema:
                await apply_schema(runner, backend, embedder.name, embedder.dimensions)
            else:
                await check_schema(runner, embedder.name, embedder.dimensions)
            points = await runner.read_tx(lambda tx: tx.one("store/meta/similarity_calibration"))
            encoder = AsyncEncoder(embedder)
            estimate = estimator_for(settings.token_estimator, embedder)
            access = AccessTracker(runner, settings.access_flush_interval, enabled=settings.access_tracking)
            preferences = PreferenceService(runner, settings.preferences_cache_seconds)
            scale = CosineScale(points["opposite"], points["orthogonal"])
            retrieval = RetrievalService(runner, encoder, scale, access,
                                         exact_scan_max=settings.exact_scan_max, vector_max_k=settings.vector_max_k,
                                         keyword_max_k=settings.keyword_max_k,
                                         keyword_stats_ttl=settings.keyword_stats_ttl,
                                         vector_in_tenant_max=0 if backend.is_neo4j else settings.vector_in_tenant_max,
                                         neighbour_lift=settings.neighbour_lift, preferences=preferences)
            memories = MemoryService(runner, encoder, max_text_chars=settings.max_text_chars,
                                     on_vectors_written=retrieval.vectors_written)
            writes = WriteService(runner, encoder, max_text_chars=settings.max_text_chars,
                                  max_batch=settings.max_batch, on_vectors_written=retrieval.vectors_written,
                                  preferences=preferences)
            entities = EntityService(runner)
            chat = chat_model(settings)
            consolidation = ConsolidationService(runner, writes, entities, scale, defaults=Defaults.of(settings),
                                                 summariser=LlmSummariser(chat) if chat and settings.llm_digests
                                                 else Extractive(), vector_max_k=settings.vector_max_k)
            llm = LlmRouter(chat) if chat and settings.llm_ask else None
            await retrieval.warm_up()
            runner.timeout = settings.backend_timeout  # from here on, every unit of work is a request's
            supervisor = None
            if backend.child is not None:
                supervisor = Supervisor(backend, runner, settings, registry["store/meta/ping"],
                                        on_restarted=retrieval.warm_up)
                runner.unavailable = lambda: supervisor.health.unavailable()
                supervisor.start()
            access.start()
            backend_pid = None
            if backend.child is not None:
                child = backend.child

                def backend_pid() -> int | None:
                    return child.process.pid if child.process is not None else None

                watch_backend_process(backend_pid)
            maintenance = Maintenance(runner, settings)
            maintenance.register(KIND_CONSOLIDATE, consolidation_job(consolidation), consolidation_params)
            maintenance.start()
        except BaseException:
            # Never stop a database in the middle of its start: Neo4j stopped while it creates its
            # store can leave one without transaction logs that no later start recovers. The model
            # fails fast (a missing model) while the database is still starting: wait it out first.
            try:
                with contextlib.suppress(Exception):
                    await asyncio.shield(ready)
            finally:
                await backend.close()
            raise
        # The rules, with the classifiers of claimless kinds and of slots when they were fitted on this
        # model; the LLM extractor, when switched on, falls back to them.
        rules = RuleExtractor(kind_classifier.for_model(embedder.name, encoder.dimensions), retrieval.embed,
                              slot_classifier.for_model(embedder.name, encoder.dimensions))
        services = cls(settings=settings, backend=backend, runner=runner, encoder=encoder, memories=memories,
                       writes=writes, retrieval=retrieval, access=access, predicates=PredicateService(runner),
                       context=ContextService(runner, retrieval, estimate, preferences,
                                              asks_about_the_past=lambda text: route_question(text).wants_history),
                       links=LinkService(runner), entities=entities, preferences=preferences,
                       ask=AskService(runner, retrieval, entities, preferences, estimate, llm,
                                      intents.for_model(embedder.name, encoder.dimensions)),
                       feedback=FeedbackService(runner), conflicts=ConflictService(runner),
                       quarantine=QuarantineService(runner), explain=ExplainService(runner),
                       keys=KeyService(runner, settings.api_key_cache_seconds),
                       idempotency=IdempotencyService(runner, settings.idempotency_ttl, settings.idempotency_wait),
                       exports=ExportService(runner, embedder.name, encoder.dimensions),
                       imports=ImportService(runner, encoder, max_text_chars=settings.max_text_chars,
                                             max_lines=settings.max_batch,
                                             on_vectors_written=retrieval.vectors_written),
                       audit=memories.audit, maintenance=maintenance, consolidation=consolidation,
                       ingestion=IngestService(runner, writes, retrieval, max_messages=settings.ingest_max_messages,
                                               max_text_chars=settings.max_text_chars,
                                               **{"extractor": rules, **llm_steps(
                                                   chat, extract=settings.llm_extract, decide=settings.llm_decide,
                                                   rules=rules)},
                                               default=PreferredDefault(preferences, settings.ingest_by_default),
                                               preferences=preferences),
                       schema_applied=True, supervisor=supervisor, backend_pid=backend_pid)
        # What is alive once the service has started (modules, the model's session, the driver, the services)
        # lives as long as the process: frozen out of the collector's generations, it is no longer walked by
        # each full collection, which paused about one search in a hundred for ~10 ms (docs/benchmarks.md,
        # "What causes the tail").
        gc.collect()
        gc.freeze()
        return services

    async def compact(self) -> Compaction:
        """Force out of the database files what hard deletes left there, where the backend can."""
        return await compact(self.backend)

    def backend_health(self) -> dict[str, Any]:
        """What is known of the database without asking it (for /health: answers at once)."""
        if self.supervisor is None:
            return {"kind": self.backend.kind, "state": "external"}
        return {"kind": self.backend.kind, **self.supervisor.health.as_dict()}

    async def readiness(self) -> dict[str, Any]:
        checks = {"schema": self.schema_applied, "model": self.encoder.dimensions > 0}
        try:
            # A probe must hear back within a second, whatever state the database is in.
            async with asyncio.timeout(READY_PING_SECONDS):
                await self.runner.read("store/meta/ping")
            checks["backend"] = True
        except (CredenceError, TimeoutError):
            checks["backend"] = False
        return {"ready": all(checks.values()), "backend": self.backend.kind, "checks": checks,
                "database": self.backend_health()}

    async def close(self) -> None:
        await self.maintenance.stop()  # running jobs go back to the queue, for another worker
        if self.supervisor is not None:
            await self.supervisor.stop()
        await self.retrieval.close()
        await self.access.stop()  # the last interval's counts, before the driver goes
        if self.backend_pid is not None:
            unwatch_backend_process(self.backend_pid)
        if self.runner.collisions.counts:
            log.warning("write collisions since start (unit at statement on record: retries): %s",
                        self.runner.collisions.report())
        await self.backend.close()
