"""Several service processes on one Neo4j server (NEO4J_URI), as production runs them: nothing may be
correct only inside one process. Neo4j only, by design: the embedded ArcadeDB and the local Neo4j
belong to the one service that starts them (its data directory lock refuses a second one,
tests/integration/test_service_process.py); sharing one database is a Neo4j server's or cluster's job
(docs/scaling.md)."""
from __future__ import annotations

import argparse
import asyncio

import httpx
import pytest
from neo4j import AsyncGraphDatabase

from api.consistency import HEADER, encode
from bench import multiprocess_load
from credence_client import Credence
from graph.services import Services
from graph.settings import Settings
from graph.store.backends.local_neo4j import LocalNeo4j
from tests.conftest import local_neo4j_available

pytestmark = pytest.mark.slow


@pytest.fixture
def neo4j_server(tmp_path):
    """A new local Neo4j 5.26 server: an empty graph no service has started on."""
    local_neo4j_available()
    server = LocalNeo4j(tmp_path / "server", heap="512m")
    endpoint = server.start()
    try:
        server.wait_port(120)
        yield endpoint
    finally:
        server.stop()


def test_services_starting_together_on_a_new_graph_all_start(neo4j_server, embedder, tmp_path):
    """Start-ups race each other on a new graph: migrations, their marks and the schema. Each must
    start, and leave the graph as one start alone does (one CredenceMeta node per key, so the
    constraints that forbid twins hold). The graph also holds the twin mark an earlier race left
    (before start-up took its lock), which stopped every later start: it is repaired."""
    asyncio.run(_seed_twin_marks(neo4j_server))
    settings = [Settings(neo4j_uri=neo4j_server.bolt_uri, neo4j_user=neo4j_server.user,
                         neo4j_password=neo4j_server.password, neo4j_database=neo4j_server.database,
                         data_dir=tmp_path / f"process-{i}") for i in range(3)]

    async def together() -> tuple[list[BaseException], list[dict]]:
        started = await asyncio.gather(*(Services.start(s, embedder) for s in settings), return_exceptions=True)
        running = [s for s in started if isinstance(s, Services)]
        try:
            meta = await running[0].backend.driver.execute_query(
                "MATCH (m:CredenceMeta) RETURN m.key AS key, count(*) AS n ORDER BY key",
                database_=neo4j_server.database) if running else None
        finally:
            for services in running:
                await services.close()
        return [s for s in started if isinstance(s, BaseException)], [r.data() for r in meta.records] if meta else []

    failed, meta = asyncio.run(together())
    assert failed == [], [str(f)[:400] for f in failed]
    assert meta == [{"key": "embedding", "n": 1}, {"key": "memory_stems", "n": 1}, {"key": "tenant_tokens", "n": 1}]


async def _seed_twin_marks(endpoint) -> None:
    async with AsyncGraphDatabase.driver(endpoint.bolt_uri, auth=(endpoint.user, endpoint.password)) as driver:
        await driver.execute_query("UNWIND [1, 2] AS twin CREATE (:CredenceMeta {key: 'tenant_tokens'})",
                                   database_=endpoint.database)


def test_two_service_processes_read_each_others_writes_and_keep_their_promises_under_load(tmp_path):
    """Two `python -m api` processes on one Neo4j (bench/multiprocess_load.py starts them at once).
    A write's answer carries a consistency token; the light client, asked to, carries it to the other
    process, which reads the write. A token the service did not write is 400, one the database does not
    know 422. Then a short mixed load over both, and its checks: every acknowledged write readable,
    exactly one active value per exclusive slot, exact feedback counters, every read-your-own-write found."""
    local_neo4j_available()
    with multiprocess_load.cluster(2, tmp_path, heap="512m") as running:
        first, second = (s.base for s in running.services)
        with Credence(first, read_your_writes=True) as writer, Credence(second, read_your_writes=True) as reader:
            stored = writer.remember("ryw", "The heron nests on the north island.")
            assert writer.consistency_token is not None
            reader.consistency_token = writer.consistency_token  # handed over, as between two workers
            assert reader.get("ryw", stored.id).text == "The heron nests on the north island."
            assert [h.id for h in reader.search("ryw", "where does the heron nest?").results] == [stored.id]
        read = httpx.get(f"{second}/v1/memories", params={"agent": "ryw"})
        assert read.status_code == 200 and HEADER not in read.headers  # a read writes nothing
        for token, status in (("not a token", 400), (encode({"FB:nonsense"}), 422)):
            answer = httpx.get(f"{second}/v1/memories", params={"agent": "ryw"}, headers={HEADER: token})
            assert answer.status_code == status, answer.text
        assert answer.json()["errors"][0]["field"] == "consistency_token"

        args = argparse.Namespace(clients=6, seconds=15, seed=5)
        run, _ = asyncio.run(multiprocess_load.load([first, second], args))
        checks = asyncio.run(multiprocess_load.verify([first, second], run))
    assert checks["acknowledged writes"] > 0 and checks["slots with an acknowledged claim"] > 0
    assert checks["memories with acknowledged feedback"] > 0 and checks["read-your-own-writes probes"] > 0
    assert {k: checks[k] for k in multiprocess_load.FAILURES} == dict.fromkeys(multiprocess_load.FAILURES, 0)
    assert not [c for codes in run.status.values() for c in codes if c >= 500], dict(run.status)
