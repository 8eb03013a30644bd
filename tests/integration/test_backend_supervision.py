"""A local database that dies is noticed, reported and restarted: the service keeps its data
directory and its promises (fast 503s meanwhile, then everything acknowledged before is there)."""
from __future__ import annotations

import os
import signal
import time

import httpx
import pytest

from tests.integration.test_service_process import BACKENDS, backend, backend_pids, free_port, launch, wait_ready  # noqa: F401

pytestmark = pytest.mark.slow
# Generous against a loaded two-core machine; before supervision each call took 15-34 s here.
PROMPT = 5.0


def timed_get(url: str, **params) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = httpx.get(url, params=params, timeout=60)
    return response, time.monotonic() - started


def test_a_killed_database_is_reported_at_once_refused_fast_and_restarted_with_its_data(backend, tmp_path,
                                                                                        exported_models):
    data, port = tmp_path / "data", free_port()
    service = launch(backend, data, port, CREDENCE_BACKEND_TIMEOUT="20", models=exported_models)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(service, port, timeout=300)
        stored = httpx.post(f"{base}/v1/memories", json={"agent": "s1", "text": "Acknowledged before the crash"},
                            timeout=60).json()
        [pid] = backend_pids(backend, data)
        os.kill(pid, signal.SIGKILL)

        # Reported within a probe's patience: /health says restarting, /ready is a 503.
        deadline, state = time.monotonic() + 10, None
        while time.monotonic() < deadline:
            health, took = timed_get(f"{base}/health")
            assert health.status_code == 200 and took < PROMPT
            state = health.json()["database"]
            if state["state"] == "restarting":
                break
            time.sleep(0.05)
        assert state["state"] == "restarting" and state["last_exit_code"] == -signal.SIGKILL
        ready, took = timed_get(f"{base}/ready")
        assert ready.status_code == 503 and took < PROMPT
        assert ready.headers["content-type"] == "application/problem+json" and "Retry-After" in ready.headers
        assert ready.json()["database"]["state"] == "restarting"
        # Requests meanwhile fail fast with a truthful detail instead of waiting out driver timeouts.
        refused, took = timed_get(f"{base}/v1/memories/{stored['id']}", agent="s1")
        assert took < PROMPT
        if refused.status_code == 503:  # the restart may already be done on a fast machine
            assert "being restarted" in refused.json()["detail"] and "Retry-After" in refused.headers

        wait_ready(service, port, timeout=180)
        state = httpx.get(f"{base}/health", timeout=60).json()["database"]
        assert (state["state"], state["restarts"]) == ("up", 1)
        assert len(backend_pids(backend, data)) == 1 and backend_pids(backend, data) != [pid]
        # The first calls after a restart meet a cold cache (and a busy machine): no short timeouts.
        fetched = httpx.get(f"{base}/v1/memories/{stored['id']}", params={"agent": "s1"}, timeout=60).json()
        assert fetched["text"] == stored["text"]
        after = httpx.post(f"{base}/v1/memories", json={"agent": "s1", "text": "Written after the restart"}, timeout=60)
        assert after.status_code == 201
        found = httpx.post(f"{base}/v1/search", json={"agent": "s1", "query": "after the restart"}, timeout=60).json()
        assert found["results"][0]["id"] == after.json()["id"]
    finally:
        if service.poll() is None:
            service.send_signal(signal.SIGTERM)
            try:
                service.wait(60)
            except Exception:
                service.kill()
