"""The vector index follows the model's dimension, start-up refuses a graph built with another
dimension, and a dead backend is a 503."""
from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graph.core.errors import SchemaMismatch, StartupError
from graph.embedding.encoder import SentenceTransformerEmbedder
from graph.services import Services
from tests.conftest import backend_test_settings
from tests.helpers import assert_problem, search, store

pytestmark = pytest.mark.slow

# What each database's log says once it is up and serving.
STARTED = {"neo4j": "CREDENCE-NEO4J READY", "arcadedb": "ArcadeDB Server started"}


@pytest.fixture(params=["arcadedb", "neo4j"])
def kind(request) -> str:
    return request.param


def test_a_new_graph_takes_the_dimension_of_the_configured_model(kind, tmp_path, model_128d):
    """A 128-dimension model on a new graph: the index is built at 128, and search goes through it (on
    torch, the runtime for a model the ONNX export does not cover)."""
    other = SentenceTransformerEmbedder(model_128d)
    texts = ["The user's sister lives in Porto.", "Invoice INV-4471 is due on 3 June.", "The cat prefers tuna."]
    query = "Where does the user's sister live?"
    # exact_scan_max 0: even three memories are ranked by the ANN index, not by the exact scan.
    settings = backend_test_settings(kind, tmp_path, exact_scan_max=0)
    with TestClient(create_app(settings=settings, embedder=other)) as client:
        for text in texts:
            store(client, "dims", text)
        results = search(client, "dims", query, mode="vector", limit=3)
        runner = client.app.state.services.runner
        meta = client.portal.call(runner.read_tx, lambda tx: tx.one("store/meta/get_embedding_meta"))
    assert meta["dimensions"] == 128
    assert results[0]["text"] == texts[0]
    expected = other.encode([r["text"] for r in results]) @ other.encode([query])[0]
    assert [r["similarity"] for r in results] == pytest.approx(expected.tolist(), abs=1e-4)


def test_a_start_that_fails_while_the_database_starts_stops_it_only_once_it_is_up(kind, tmp_path, embedder):
    """A model that cannot load fails the start at once, while the database is still starting. Neo4j
    stopped in the middle of creating its store can leave one without transaction logs, which no later
    start recovers ("Transaction logs are missing and recovery is not possible"); so a failed start
    waits for the database to be up, stops it cleanly, and the same data directory starts again."""
    import sentence_transformers  # noqa: F401  (loaded here, so the model fails at once, not after an import)

    missing = tmp_path / "no-model"
    missing.mkdir()
    settings = backend_test_settings(kind, tmp_path, embedding_model=str(missing), embedding_runtime="torch")
    with pytest.raises(StartupError, match=r"CREDENCE_EMBEDDING_MODEL=.*no-model could not be loaded on torch"):
        asyncio.run(Services.start(settings))
    log = (tmp_path / ("neo4j" if kind == "neo4j" else "arcadedb") / "server.log").read_text(errors="replace")
    assert STARTED[kind] in log, log[-2000:]

    async def start_and_close() -> int:
        services = await Services.start(backend_test_settings(kind, tmp_path), embedder)
        try:
            return (await services.runner.read_tx(lambda tx: tx.one("store/meta/get_embedding_meta")))["dimensions"]
        finally:
            await services.close()

    assert asyncio.run(start_and_close()) == 384


def test_a_model_the_export_does_not_cover_is_refused_at_start_and_runs_on_torch_when_asked(kind, tmp_path,
                                                                                             model_128d):
    """The service embeds on ONNX Runtime only through a verified export; a model whose pipeline the export
    does not cover stops the start, saying why and what to do. CREDENCE_EMBEDDING_RUNTIME=torch runs it."""
    settings = backend_test_settings(kind, tmp_path, embedding_model=model_128d)

    async def start_and_close(settings) -> tuple[str, int]:
        services = await Services.start(settings)
        try:
            return services.encoder.runtime, services.encoder.dimensions
        finally:
            await services.close()

    with pytest.raises(StartupError) as err:
        asyncio.run(start_and_close(settings))
    message = str(err.value)
    assert "Transformer + Pooling + Dense" in message and "CREDENCE_EMBEDDING_RUNTIME=torch" in message
    assert list((tmp_path / "models").iterdir()) == []  # no half-written export is left to trust later
    assert asyncio.run(start_and_close(settings.model_copy(update={"embedding_runtime": "torch"}))) == ("torch", 128)


def test_a_changed_embedding_dimension_stops_start_up_with_a_clear_message(kind, tmp_path, embedder, model_128d):
    settings = backend_test_settings(kind, tmp_path)

    async def first_start_then_changed_model():
        services = await Services.start(settings, embedder)
        await services.close()
        other = SentenceTransformerEmbedder(model_128d)
        assert other.dimensions == 128
        await Services.start(settings, other)

    with pytest.raises(SchemaMismatch) as err:
        asyncio.run(first_start_then_changed_model())
    message = str(err.value)
    assert "384-dimension" in message and "128-dimension" in message and "CREDENCE_EMBEDDING_MODEL" in message


def test_a_backend_that_goes_down_gives_503_with_retry_after(kind, tmp_path, embedder):
    settings = backend_test_settings(kind, tmp_path, neo4j_max_transaction_retry_time=1)
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        assert client.post("/v1/memories", json={"agent": "d1", "text": "before the outage"}).status_code == 201
        client.app.state.services.backend.child.stop()

        for response in (client.post("/v1/memories", json={"agent": "d1", "text": "during the outage"}),
                         client.get("/v1/memories", params={"agent": "d1"}),
                         client.post("/v1/search", json={"agent": "d1", "query": "outage"}),
                         client.get("/ready")):
            assert_problem(response, 503)
            assert response.headers["retry-after"] == "5"
        assert client.get("/health").status_code == 200
