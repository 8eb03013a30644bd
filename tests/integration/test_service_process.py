"""The service as a user runs it: `python -m api` in its own process, on the embedded backend."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(data_dir: Path, port: int, **env: str) -> subprocess.Popen:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDENCE_"))}
    environment.update(CREDENCE_DATA_DIR=str(data_dir), CREDENCE_PORT=str(port), CREDENCE_EMBEDDED_HEAP="512m", **env)
    return subprocess.Popen([sys.executable, "-m", "api"], cwd=ROOT, env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_ready(proc: subprocess.Popen, port: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stdout.read()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError("service did not become ready")


def backend_pids(data_dir: Path) -> list[int]:
    marker = f"-Darcadedb.server.rootPath={(data_dir / 'arcadedb').resolve()}"
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace").split("\0"):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def wait_gone(data_dir: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while backend_pids(data_dir) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert backend_pids(data_dir) == [], "the embedded backend outlived the service"


def test_data_survives_restart_and_the_backend_dies_with_a_killed_service(tmp_path):
    data, port = tmp_path / "data", free_port()
    service = launch(data, port)
    try:
        wait_ready(service, port)
        base = f"http://127.0.0.1:{port}"
        stored = httpx.post(f"{base}/v1/memories", json={"agent": "p1", "text": "Survives restarts"}).json()
        assert len(backend_pids(data)) == 1

        # A second service on the same data directory stops with a clear message, not a hang.
        second = launch(data, free_port())
        output, _ = second.communicate(timeout=60)
        assert second.returncode != 0
        assert "is in use by another Credence process" in output

        service.send_signal(signal.SIGKILL)
        service.wait(10)
        wait_gone(data)
    finally:
        if service.poll() is None:
            service.kill()

    service = launch(data, port)
    try:
        wait_ready(service, port)
        fetched = httpx.get(f"{base}/v1/memories/{stored['id']}", params={"agent": "p1"}).json()
        assert (fetched["id"], fetched["text"], fetched["created_at"]) == (stored["id"], stored["text"], stored["created_at"])
        found = httpx.post(f"{base}/v1/search", json={"agent": "p1", "query": "restarts"}).json()
        assert [r["id"] for r in found["results"]] == [stored["id"]]
        service.send_signal(signal.SIGTERM)
        output, _ = service.communicate(timeout=60)
        # uvicorn shuts down gracefully, then re-raises SIGTERM so the exit status tells why it ended.
        assert service.returncode in (0, -signal.SIGTERM)
        assert "embedded backend stopped" in output and "Application shutdown complete" in output
        wait_gone(data, timeout=5)
    finally:
        if service.poll() is None:
            service.kill()


def test_a_taken_backend_port_stops_the_start_clearly(tmp_path):
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        service = launch(tmp_path / "data", free_port(), CREDENCE_EMBEDDED_BOLT_PORT=str(taken))
        output, _ = service.communicate(timeout=60)
    assert service.returncode != 0
    assert f"port {taken} for the embedded backend's bolt is already taken" in output
    assert backend_pids(tmp_path / "data") == []
