"""The service as a user runs it: `python -m api` in its own process, on each local backend."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import local_neo4j_available, share_models
from tests.helpers import sample, scrape

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
# CREDENCE_BACKEND value -> (the backend's folder in the data dir, its name in messages, its port setting)
BACKENDS = {"embedded": ("arcadedb", "embedded backend", "CREDENCE_EMBEDDED_BOLT_PORT"),
            "neo4j": ("neo4j", "local Neo4j", "CREDENCE_LOCAL_NEO4J_BOLT_PORT")}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request) -> str:
    if request.param == "neo4j":
        local_neo4j_available()
    return request.param


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(backend: str, data_dir: Path, port: int, *python_options: str, output: Path | None = None,
           models: Path | None = None, **env: str) -> subprocess.Popen:
    """The service's output goes to a pipe, or to the file `output` (for more than a pipe holds unread);
    `models`: a model export for a new data directory to share (conftest.exported_models)."""
    if models is not None and not (data_dir / "models").exists():
        share_models(data_dir, models)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDENCE_"))}
    environment.update(CREDENCE_BACKEND=backend, CREDENCE_DATA_DIR=str(data_dir), CREDENCE_PORT=str(port),
                       CREDENCE_EMBEDDED_HEAP="512m", CREDENCE_LOCAL_NEO4J_HEAP="512m", **env)
    sink = subprocess.PIPE if output is None else output.open("w")
    return subprocess.Popen([sys.executable, *python_options, "-m", "api"], cwd=ROOT, env=environment,
                            stdout=sink, stderr=subprocess.STDOUT, text=True)


def wait_ready(proc: subprocess.Popen, port: int, timeout: float = 120, log: Path | None = None) -> None:
    """Until /ready answers 200; a service that exits first fails with its output (its pipe, or `log`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text(errors="replace")[-3000:] if log else proc.stdout.read()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError("service did not become ready")


def backend_pids(backend: str, data_dir: Path) -> list[int]:
    """The database processes whose command line names this data directory's backend folder."""
    root = str((data_dir / BACKENDS[backend][0]).resolve())
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                args = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            except OSError:
                continue
            if any(a == root or a.endswith("=" + root) for a in args) and "java" in args[0]:
                pids.append(int(entry.name))
    return pids


def wait_gone(backend: str, data_dir: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while backend_pids(backend, data_dir) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert backend_pids(backend, data_dir) == [], f"the {BACKENDS[backend][1]} outlived the service"


def test_data_survives_restart_and_the_backend_dies_with_a_killed_service(backend, tmp_path, exported_models):
    data, port = tmp_path / "data", free_port()
    service = launch(backend, data, port, models=exported_models)
    try:
        wait_ready(service, port)
        base = f"http://127.0.0.1:{port}"
        stored = httpx.post(f"{base}/v1/memories", json={"agent": "p1", "text": "Survives restarts"}).json()
        assert len(backend_pids(backend, data)) == 1

        # A second service on the same data directory stops with a clear message, not a hang.
        second = launch(backend, data, free_port())
        output, _ = second.communicate(timeout=60)
        assert second.returncode != 0
        assert "is in use by another Credence process" in output

        service.send_signal(signal.SIGKILL)
        service.wait(10)
        wait_gone(backend, data)
    finally:
        if service.poll() is None:
            service.kill()

    service = launch(backend, data, port)
    try:
        wait_ready(service, port)
        fetched = httpx.get(f"{base}/v1/memories/{stored['id']}", params={"agent": "p1"}).json()
        assert (fetched["id"], fetched["text"], fetched["created_at"]) == \
            (stored["id"], stored["text"], stored["created_at"])
        found = httpx.post(f"{base}/v1/search", json={"agent": "p1", "query": "restarts"}).json()
        assert [r["id"] for r in found["results"]] == [stored["id"]]
        service.send_signal(signal.SIGTERM)
        output, _ = service.communicate(timeout=60)
        # uvicorn shuts down gracefully, then re-raises SIGTERM so the exit status tells why it ended.
        assert service.returncode in (0, -signal.SIGTERM)
        assert f"{BACKENDS[backend][1]} stopped" in output and "Application shutdown complete" in output
        wait_gone(backend, data, timeout=5)
    finally:
        if service.poll() is None:
            service.kill()


def test_a_taken_backend_port_stops_the_start_clearly(backend, tmp_path):
    _, name, setting = BACKENDS[backend]
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        service = launch(backend, tmp_path / "data", free_port(), **{setting: str(taken)})
        output, _ = service.communicate(timeout=60)
    assert service.returncode != 0
    assert f"port {taken} for the {name}'s bolt is already taken" in output
    assert backend_pids(backend, tmp_path / "data") == []


def test_json_logs_and_metrics_from_the_service_process(backend, tmp_path, exported_models):
    """CREDENCE_LOG_FORMAT=json: every line the process writes, from uvicorn's first to its last, is one
    JSON object, the store's access line with its request id, route and status; /metrics wants its
    token, then serves the store just made, and the memory of the database process."""
    port, token = free_port(), "scrape-token-0123456789"
    service = launch(backend, tmp_path / "data", port, CREDENCE_LOG_FORMAT="json", CREDENCE_METRICS_TOKEN=token,
                     models=exported_models)
    try:
        wait_ready(service, port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            stored = http.post("/v1/memories", json={"agent": "p1", "text": "JSON all the way"},
                               headers={"X-Request-Id": "proc-store-1"})
            assert stored.status_code == 201, stored.text
            assert http.get("/metrics").status_code == 401
            samples = scrape(http, Authorization=f"Bearer {token}")
        assert sample(samples, "credence_http_request_duration_seconds_count",
                      method="POST", route="/v1/memories", status="201") == 1
        assert sample(samples, "credence_db_statement_duration_seconds_count",
                      statement="memories/create", outcome="ok") == 1
        assert sample(samples, "credence_embedding_texts_total", lane="single") >= 1
        assert sample(samples, "credence_backend_process_resident_memory_bytes") > 0
        service.send_signal(signal.SIGTERM)
        output, _ = service.communicate(timeout=60)
    finally:
        if service.poll() is None:
            service.kill()
    lines = [json.loads(line) for line in output.splitlines()]  # a progress bar or a print would fail here
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    [access] = [line for line in lines if line.get("request_id") == "proc-store-1"]
    assert (access["logger"], access["method"], access["route"], access["status"]) == \
        ("credence.access", "POST", "/v1/memories", 201)
    assert lines[-1]["logger"] == "uvicorn.error" and lines[-1]["message"].startswith("Finished server process")


def test_the_service_process_embeds_without_torch(backend, tmp_path):
    """`python -m api` on a new data directory: the first start exports the model in a child process,
    then the service embeds a query and a batch on ONNX Runtime and never imports torch or
    sentence-transformers (`-X importtime` names every module the process imports, whenever it does). Its
    resident memory after start and a search stays within 500 MB (docs/benchmarks.md records the figure)."""
    port, log = free_port(), tmp_path / "service.log"
    service = launch(backend, tmp_path / "data", port, "-X", "importtime", output=log)
    try:
        wait_ready(service, port, timeout=300, log=log)  # the export runs first, once
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            texts = ["The user's sister lives in Porto.", "Invoice INV-4471 is due on 3 June.", "The cat likes tuna."]
            batch = http.post("/v1/memories:batch", json={"memories": [{"agent": "p1", "text": t} for t in texts]})
            assert batch.status_code == 201, batch.text
            found = http.post("/v1/search", json={"agent": "p1", "query": "Where does the sister live?"}).json()
            assert found["results"][0]["text"] == texts[0]
            samples = scrape(http)
        assert sample(samples, "credence_embedding_duration_seconds_count", lane="batch", runtime="onnx") == 1
        assert sample(samples, "credence_embedding_duration_seconds_count", lane="single", runtime="onnx") >= 1
        rss_mb = sample(samples, "process_resident_memory_bytes") / 2**20
        print(f"service RSS after start, a batch and a search on {backend}: {rss_mb:.0f} MB; database "
              f"{sample(samples, 'credence_backend_process_resident_memory_bytes') / 2**20:.0f} MB")
        assert rss_mb <= 500
        service.send_signal(signal.SIGTERM)
        service.wait(60)
    finally:
        if service.poll() is None:
            service.kill()
    output = log.read_text(errors="replace")
    imported = {line.rsplit("|", 1)[1].strip() for line in output.splitlines() if line.startswith("import time:")}
    assert "graph.embedding.onnx_encoder" in imported and "onnxruntime" in imported  # the listing is complete
    assert not {m for m in imported if m.split(".")[0] in ("torch", "sentence_transformers", "transformers")}
    [export] = (tmp_path / "data" / "models").iterdir()  # made there, once, whole
    assert export.name.startswith("all-MiniLM-L6-v2-") and (export / "manifest.json").exists()

