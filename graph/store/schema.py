"""Idempotent schema set-up at start-up, and the guard against a changed embedding model.

Constraints and range indexes are the same Cypher on both backends. Vector and full-text index
DDL is the one place the backends differ (docs/backends.md §2.1): Neo4j Cypher vs ArcadeDB SQL, under
the same index names, so every query that uses them is shared."""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from neo4j.exceptions import Neo4jError

from graph.core.errors import SchemaMismatch, StartupError
from graph.core.tenant_token import tenant_token
from graph.core.timeutil import iso, utcnow
from graph.store import unstemmed
from graph.store.backends.connect import Backend
from graph.store.gateway import GraphRunner

log = logging.getLogger(__name__)
INDEX_WAIT_SECONDS = 300


async def check_embedding_dimensions(runner: GraphRunner, model: str, dimensions: int) -> None:
    """Stop with a clear message when stored vectors or the index have another dimension."""
    meta = await runner.read_tx(lambda tx: tx.one("store/meta/get_embedding_meta"))
    found = meta["dimensions"]
    for row in await runner.read("store/meta/vector_index_options"):
        config = (row.get("options") or {}).get("indexConfig") or {}
        found = config.get("vector.dimensions", found)
    if found is not None and int(found) != dimensions:
        raise SchemaMismatch(
            f"the graph's vector index holds {found}-dimension embeddings (model {meta['model'] or 'unknown'}), "
            f"but the configured model {model} makes {dimensions}-dimension ones. Configure the original "
            "model (CREDENCE_EMBEDDING_MODEL), or point CREDENCE_DATA_DIR / NEO4J_DATABASE at a new graph "
            "and re-import the memories so they are re-embedded.")
    if meta["model"] is not None and meta["model"] != model:
        log.warning("stored embeddings came from model %s; now using %s with the same dimension",
                    meta["model"], model)


async def apply_migrations(runner: GraphRunner) -> None:
    """Repair what older versions left, in the order of their leading numbers, before the constraints that forbid it
    (a constraint cannot be created over the twins it forbids). Each is a no-op once done."""
    for query in runner.registry.group("store/migrations"):
        await runner.write(query.name)


async def key_memories_by_tenant(runner: GraphRunner, batch: int = 10_000) -> None:
    """Give memories stored before tenant tokens their tenant's token (graph/core/tenant_token.py),
    in batches of one tenant's memories. Driven from Python, not a file run by apply_migrations:
    Cypher has no digest to compute the token with. A no-op once every memory has one."""
    while rows := await runner.read("store/migrations/tenant_tokens/untokened_agents", limit=100):
        for agent in (r["agent"] for r in rows):
            async def one_batch(tx, agent=agent) -> int:
                return await tx.scalar("store/migrations/tenant_tokens/set", agent=agent,
                                       token=tenant_token(agent), limit=batch)
            while await runner.write_tx(one_batch) == batch:
                pass
        log.info("tenant tokens given to the memories of %d tenant(s)", len(rows))


async def stem_memories(runner: GraphRunner, batch: int = 1_000) -> None:
    """Give memories stored before keyword search matched stems their stems, in batches of one tenant's
    memories (graph/store/unstemmed.py, which the stem job shares). A no-op once every memory has them."""
    while agents := await unstemmed.tenants(runner, limit=100):
        for agent in agents:
            async def one_batch(tx, agent=agent) -> unstemmed.Batch:
                return await unstemmed.stem_batch(tx, agent, batch)
            while (await runner.write_tx(one_batch)).read == batch:
                pass
        log.info("stems given to the memories of %d tenant(s)", len(agents))


async def apply_schema(runner: GraphRunner, backend: Backend, model: str, dimensions: int) -> None:
    async with applying_alone(runner, backend):
        await _apply_schema(runner, backend, model, dimensions)


@asynccontextmanager
async def applying_alone(runner: GraphRunner, backend: Backend) -> AsyncIterator[None]:
    """On a database this process does not own (NEO4J_URI), other service processes may be starting
    at the same moment: each applies migrations and schema holding start-up's lock, a node whose write
    lock a transaction keeps until this process is done (cypher/store/startup/lock.cypher), so they
    take turns. Raced, two first starts each recorded a mark the uniqueness constraint then refused
    (tests/integration/test_shared_database.py). A database this process started is its alone (the
    data directory lock), so it needs none."""
    if backend.child is not None:
        yield
        return
    try:
        await runner.write("store/startup/lock_key_unique")
    except Neo4jError:  # created by a process starting at the same moment: it exists now
        await runner.write("store/startup/lock_key_unique")
    started = time.monotonic()
    async with runner.holding("store/startup/lock", holder=f"{socket.gethostname()}:{os.getpid()}",
                              now=iso(utcnow())):
        waited = time.monotonic() - started
        if waited > 1:
            log.info("waited %.1f s for another process's start-up to apply the schema", waited)
        yield


async def _apply_schema(runner: GraphRunner, backend: Backend, model: str, dimensions: int) -> None:
    await check_embedding_dimensions(runner, model, dimensions)
    await apply_migrations(runner)
    # Once done, never again: the scan for memories without a token reads every memory (0.5 s at 100k).
    if not (await runner.read_one("store/migrations/tenant_tokens/done"))["done"]:
        await key_memories_by_tenant(runner)
        await runner.write("store/migrations/tenant_tokens/mark_done")
    # Before the full-text index over stems is made, so it is built over every memory's.
    if not (await runner.read_one("store/migrations/memory_stems/done"))["done"]:
        await stem_memories(runner)
        await runner.write("store/migrations/memory_stems/mark_done")
    for query in runner.registry.group("store/schema"):
        await runner.write(query.name)
    if backend.is_neo4j:
        # Quantisation (on by default in 5.26) would make index scores drift from the exact path's
        # cosine, and the two are mixed in one ranking: full precision, decided here.
        options = {"indexConfig": {"vector.dimensions": dimensions, "vector.similarity_function": "cosine",
                                   "vector.quantization.enabled": False}}
        await runner.write("store/schema/neo4j/memory_embedding_index", options=options)
        await runner.write("store/schema/neo4j/drop_memory_text_index")
        await runner.write("store/schema/neo4j/drop_memory_text_by_tenant_index")
        await runner.write("store/schema/neo4j/memory_stems_by_tenant_index")
        await runner.write("store/schema/neo4j/await_indexes", seconds=INDEX_WAIT_SECONDS)
    else:
        for statement in runner.registry.statements("store/schema/arcadedb/search_indexes", "sql"):
            await asyncio.to_thread(backend.arcadedb.sql, statement.replace("{dimensions}", str(int(dimensions))))
    await runner.write("store/meta/set_embedding_meta", model=model, dimensions=dimensions)
    log.info("schema applied (%s backend, %d-dim vector index)", backend.kind, dimensions)


async def check_schema(runner: GraphRunner, model: str, dimensions: int) -> None:
    """For a process that does not own the schema (a worker apart from the API): the schema must have
    been applied, by a service, for this embedding model's dimension."""
    meta = await runner.read_tx(lambda tx: tx.one("store/meta/get_embedding_meta"))
    if meta["dimensions"] is None:
        raise StartupError("the graph has no schema yet: start the service (`python -m api`) on this database "
                           "once before a worker process")
    await check_embedding_dimensions(runner, model, dimensions)
