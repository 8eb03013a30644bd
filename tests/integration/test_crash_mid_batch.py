"""Kill -9 in the middle of a 1,000-memory batch (issue 13, keep the probes): the service process
and its database child die with the batch in flight; the service is started again on the same data
directory. The batch is then all or nothing, and the client's retry with the same Idempotency-Key
either replays the first answer or commits the batch once: never twice, never in part.

Each round kills at a different point of a batch's life (measured on an uninterrupted batch first),
so some kills land while the memories are embedded and some while the transaction writes."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.conftest import share_models
from tests.integration.test_service_process import BACKENDS, backend_pids, free_port, wait_gone, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]  # service restarts and 1,000-memory batches
ROOT = Path(__file__).resolve().parents[2]
BATCH = 1_000
KILL_AT = (0.75, 0.92)  # fractions of an uninterrupted (warm) batch's time


@pytest.fixture(params=sorted(BACKENDS))
def backend(request) -> str:
    if request.param == "neo4j":
        from tests.conftest import local_neo4j_available
        local_neo4j_available()
    return request.param


class Service:
    """`python -m api` on a data directory, its output in a file (an unread pipe would fill up and
    stall the service), started again after each kill."""

    def __init__(self, backend: str, data: Path) -> None:
        self.backend, self.data, self.port = backend, data, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data.parent / "service.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDENCE_"))}
        env.update(CREDENCE_BACKEND=self.backend, CREDENCE_DATA_DIR=str(self.data), CREDENCE_PORT=str(self.port),
                   CREDENCE_EMBEDDED_HEAP="768m", CREDENCE_LOCAL_NEO4J_HEAP="768m", CREDENCE_LOG_LEVEL="warning")
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen([sys.executable, "-m", "api"], cwd=ROOT, env=env,
                                            stdout=sink, stderr=subprocess.STDOUT)
        wait_ready(self.process, self.port, timeout=300, log=self.log)

    def kill(self) -> None:
        """SIGKILL to the service and to its database child, as a crash of the machine's processes."""
        children = backend_pids(self.backend, self.data)
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(30)
        wait_gone(self.backend, self.data)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.kill()

    def count(self, agent: str) -> int:
        seen, cursor = 0, None
        while True:
            params = {"agent": agent, "limit": 500, **({"cursor": cursor} if cursor else {})}
            page = httpx.get(f"{self.base}/v1/memories", params=params, timeout=120).json()
            seen += len(page["items"])
            cursor = page["next_cursor"]
            if not cursor:
                return seen


def batch(agent: str) -> dict:
    return {"memories": [{"agent": agent, "text": f"{agent} remembers fact number {i} about the trip"}
                         for i in range(BATCH)]}


def send(service: Service, agent: str, key: str) -> httpx.Response:
    return httpx.post(f"{service.base}/v1/memories:batch", json=batch(agent), headers={"Idempotency-Key": key},
                      timeout=600)


def test_a_batch_killed_mid_flight_is_all_or_nothing_and_its_retry_commits_once(backend, tmp_path,
                                                                               exported_models):
    share_models(tmp_path / "data", exported_models)
    service = Service(backend, tmp_path / "data")
    service.start()
    try:
        for _ in range(2):  # the first batch on a fresh directory is slower: time the second
            started = time.monotonic()
            assert send(service, f"warm-{uuid.uuid4().hex[:6]}", str(uuid.uuid4())).status_code == 201
        whole = time.monotonic() - started

        outcomes = []
        for fraction in KILL_AT:
            agent, key = f"crash-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
            answered: list[httpx.Response | Exception] = []

            def first_try(agent=agent, key=key, answered=answered) -> None:
                try:
                    answered.append(send(service, agent, key))
                except httpx.HTTPError as exc:
                    answered.append(exc)

            thread = threading.Thread(target=first_try)
            thread.start()
            time.sleep(whole * fraction)
            service.kill()
            thread.join(60)
            service.start()

            stored = service.count(agent)
            assert stored in (0, BATCH), f"a killed batch left {stored} of {BATCH} memories"
            first = answered[0]
            if isinstance(first, httpx.Response):  # it answered before the kill: then it committed
                assert first.status_code == 201 and stored == BATCH

            retry = send(service, agent, key)
            if retry.status_code == 201:
                ids = [m["id"] for m in retry.json()["memories"]]
                assert len(set(ids)) == BATCH
                assert retry.headers.get("Idempotent-Replayed") == ("true" if stored else None)
            else:
                # Committed, but killed before its answer was kept: refused rather than written twice.
                assert retry.status_code == 409 and stored == BATCH, retry.text
                assert retry.json()["type"] == "urn:credence:problem:idempotency-key-in-use"
            assert service.count(agent) == BATCH
            outcomes.append("answered" if isinstance(first, httpx.Response) else
                            "committed" if stored else "rolled back")
            print(f"{backend}: killed at {fraction:.0%} of {whole:.0f}s: {outcomes[-1]}; retry {retry.status_code}",
                  file=sys.stderr, flush=True)
        print(f"{backend}: batch {whole:.1f}s; kills at {KILL_AT}: {outcomes}")
    finally:
        service.stop()
