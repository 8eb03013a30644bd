"""Shared fixtures. Integration tests run the real service against a real Bolt backend: the
embedded ArcadeDB always, and Neo4j too when NEO4J_URI is set or Docker can start one."""
from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graph.embedding.encoder import SentenceTransformerEmbedder
from graph.settings import Settings

# Small enough that a test tenant of a few hundred memories exercises the ANN-index path.
TEST_EXACT_SCAN_MAX = 100
TEST_ADMIN_KEY = "test-admin-key"


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory) -> Path:
    """A fresh cache, so every run exports the query model to ONNX as a first start does."""
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def embedder(model_cache) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(cache_dir=model_cache)


def _docker_engine() -> bool:
    if not shutil.which("docker"):
        return False
    return subprocess.run(["docker", "info"], capture_output=True, timeout=20).returncode == 0


def _neo4j_settings(tmp: Path) -> tuple[Settings, object | None]:
    common = {"data_dir": tmp, "exact_scan_max": TEST_EXACT_SCAN_MAX, "admin_api_key": TEST_ADMIN_KEY,
              "access_flush_interval": 0.2}
    if os.environ.get("NEO4J_URI"):
        return Settings(**common), None
    if not _docker_engine():
        pytest.skip("Neo4j backend: NEO4J_URI is not set and no Docker engine answers `docker info` "
                    "(this machine cannot run Neo4j; the embedded ArcadeDB run covers the suite)")
    try:
        from testcontainers.neo4j import Neo4jContainer
    except ImportError:
        pytest.skip("Neo4j backend: Docker is here but testcontainers is not installed "
                    "(pip install -e '.[neo4j-tests]')")
    container = Neo4jContainer("neo4j:5.26-community", password="credence-test").start()
    settings = Settings(**common, neo4j_uri=container.get_connection_url(), neo4j_user="neo4j",
                        neo4j_password="credence-test", neo4j_database="neo4j")
    return settings, container


@pytest.fixture(scope="session", params=["arcadedb", "neo4j"])
def backend_settings(request, tmp_path_factory) -> Iterator[Settings]:
    tmp = tmp_path_factory.mktemp(f"data-{request.param}")
    if request.param == "arcadedb":
        yield Settings(data_dir=tmp, exact_scan_max=TEST_EXACT_SCAN_MAX, embedded_heap="1g",
                       admin_api_key=TEST_ADMIN_KEY, access_flush_interval=0.2)
        return
    settings, container = _neo4j_settings(tmp)
    yield settings
    if container is not None:
        container.stop()


@pytest.fixture(scope="session")
def client(backend_settings, embedder) -> Iterator[TestClient]:
    """One running service per backend for the whole session; tests isolate by tenant."""
    app = create_app(settings=backend_settings, embedder=embedder)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def services(client):
    return client.app.state.services


@pytest.fixture
def agent() -> str:
    """A fresh tenant per test: tests share one graph and never see each other's data."""
    return f"t-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def run(client):
    """Run a coroutine function on the service's own event loop (the driver is bound to it)."""
    def call(fn, *args):
        return client.portal.call(fn, *args)
    return call


def pytest_terminal_summary(terminalreporter):
    """One line per distinct skip reason instead of one per test."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in reasons.items():
        terminalreporter.write_line(f"SKIPPED {count} tests: {reason}")


@pytest.fixture
def cypher(client, services):
    """Run a read-only check against the graph itself (test-side Cypher, on the service's loop)."""
    driver, database = services.backend.driver, services.backend.database

    def query(text: str, **params):
        async def go():
            records, _, _ = await driver.execute_query(text, params, database_=database)
            return [r.data() for r in records]
        return client.portal.call(go)
    return query
