"""Jobs across real processes, on the test session's database: a worker process killed with SIGKILL
in the middle of a job loses it when its lease runs out, another worker process finishes it, and
each of its effects lands exactly once (both backends); two service processes on one Neo4j enqueue
and run each period of a schedule once.

The processes reach the session's database as a deployment's reach a shared server: through
NEO4J_URI, at the endpoint of the database process the test service owns. They run the built-in
kinds only, and the test leaves no such job queued for them but its own."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import TEST_ADMIN_KEY, share_models
from tests.helpers import store_many
from tests.integration.test_service_process import free_port, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
ROOT = Path(__file__).resolve().parents[2]
ADMIN = {"Authorization": f"Bearer {TEST_ADMIN_KEY}"}
MEMORIES = 300


def shared_database(services, model_cache: Path, data_dir: Path) -> dict[str, str]:
    """The environment of a process that uses the session's database as its server, with a data
    directory of its own whose model export is the session's (as processes of one install share one)."""
    endpoint = services.backend.endpoint
    assert endpoint is not None
    share_models(data_dir, model_cache)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDENCE_"))}
    environment.update(NEO4J_URI=endpoint.bolt_uri, NEO4J_USER=endpoint.user, NEO4J_PASSWORD=endpoint.password,
                       NEO4J_DATABASE=endpoint.database, CREDENCE_DATA_DIR=str(data_dir), CREDENCE_LOG_LEVEL="info")
    return environment


def start(args: list[str], environment: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("ab") as sink:
        return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=environment, stdout=sink,
                                stderr=subprocess.STDOUT)


def wait_logged(process: subprocess.Popen, log: Path, text: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(errors="replace")[-3000:]
        if text in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise AssertionError(f"{text!r} not logged: {log.read_text(errors='replace')[-3000:]}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def test_a_worker_killed_mid_job_loses_it_and_the_job_finishes_once(client, services, agent, tmp_path, model_cache):
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    stored = store_many(client, agent, [f"Ticket {i} for the conference is valid until last hour"
                                        for i in range(MEMORIES)], expires_at=past)
    environment = {**shared_database(services, model_cache, tmp_path / "data"),
                   "CREDENCE_JOBS_SCHEDULER": "false", "CREDENCE_JOBS_LEASE_SECONDS": "5",
                   "CREDENCE_JOBS_POLL_INTERVAL": "0.2", "CREDENCE_MAINTENANCE_BATCH": "1"}
    workers = {}
    try:
        for name in ("a", "b"):
            log = tmp_path / f"worker-{name}.log"
            process = start(["-m", "graph.worker"], environment, log)
            workers[process.pid] = (process, log)
        for process, log in workers.values():
            wait_logged(process, log, "worker process ready")

        queued = client.post("/v1/jobs", json={"agent": agent, "kind": "expire"})
        assert queued.status_code == 201, queued.text
        job_id = queued.json()["id"]

        def job() -> dict:
            return client.get(f"/v1/jobs/{job_id}", params={"agent": agent}).json()

        deadline = time.monotonic() + 120
        while (seen := job())["progress"]["done"] < 20:
            assert time.monotonic() < deadline and seen["status"] in ("queued", "running"), seen
            time.sleep(0.05)
        # Whichever worker holds it now (on a loaded machine a lease may already have changed hands).
        holder, attempts = int(seen["lease_owner"].split(":")[1]), seen["attempts"]
        assert holder in workers
        workers[holder][0].send_signal(signal.SIGKILL)  # mid-job: between two of its transactions, or in one
        workers[holder][0].wait(10)
        killed_at = seen["progress"]["done"]

        deadline = time.monotonic() + 180
        while (seen := job())["status"] != "succeeded":
            assert time.monotonic() < deadline and seen["status"] in ("queued", "running"), seen
            time.sleep(0.2)
        assert killed_at < MEMORIES, "the job ended before the kill: nothing was tested"
        assert seen["attempts"] > attempts and seen["result"] == {"archived": MEMORIES}
        assert seen["progress"] == {"done": MEMORIES, "total": MEMORIES}
        print(f"killed worker {holder} at {killed_at} of {MEMORIES}; the other finished the job", file=sys.stderr)
    finally:
        for process, _ in workers.values():
            stop(process)

    records = []
    cursor = None
    while True:
        page = client.get("/v1/audit", params={"agent": agent, "op": "expire", "limit": 500,
                                               **({"cursor": cursor} if cursor else {})}).json()
        records += page["items"]
        if not (cursor := page["next_cursor"]):
            break
    touched = Counter(r["memory_ids"][0] for r in records)
    assert touched == Counter({m["id"]: 1 for m in stored}), "some memory was archived twice, or not at all"
    assert {r["job_id"] for r in records} == {job_id}
    listed = client.get("/v1/memories", params={"agent": agent, "status": "archived", "limit": 500}).json()
    assert listed["count"] == MEMORIES


# Several service processes share a database server, Neo4j; the embedded backend is one process's.
@pytest.mark.parametrize("backend_settings", ["neo4j"], indirect=True)
def test_two_service_processes_run_each_period_of_a_schedule_once(client, services, agent, tmp_path, model_cache):
    expired = store_many(client, agent, ["The visitor badge expired yesterday"],
                         expires_at=(datetime.now(UTC) - timedelta(days=1)).isoformat())[0]
    environment = {"CREDENCE_SCHEDULE_EXPIRE": "* * * * *", "CREDENCE_SCHEDULE_DECAY": "", "CREDENCE_SCHEDULE_STEM": "",
                   "CREDENCE_JOBS_POLL_INTERVAL": "0.3", "CREDENCE_ADMIN_API_KEY": TEST_ADMIN_KEY}
    started = datetime.now(UTC)
    processes = []
    try:
        for name in ("one", "two"):
            port = free_port()
            process = start(["-m", "api"], {**shared_database(services, model_cache, tmp_path / name), **environment,
                                            "CREDENCE_PORT": str(port)}, tmp_path / f"{name}.log")
            processes.append(process)
            wait_ready(process, port, timeout=300, log=tmp_path / f"{name}.log")

        def periods() -> dict[str, list[dict]]:
            items = client.get("/v1/admin/jobs", headers=ADMIN, params={"kind": "expire", "limit": 500}).json()["items"]
            mine: dict[str, list[dict]] = {}
            for item in items:
                if datetime.fromisoformat(item["created_at"]) >= started - timedelta(minutes=1):
                    mine.setdefault(item["params"]["period"], []).append(item)
            return mine

        deadline = time.monotonic() + 240  # the first minute only starts the schedule: two more to run
        while sum(all(j["status"] == "succeeded" for j in jobs) for jobs in periods().values()) < 2:
            assert time.monotonic() < deadline, periods()
            time.sleep(1)
    finally:
        for process in processes:
            stop(process)
    seen = periods()
    assert len(seen) >= 2
    for period, jobs in seen.items():
        assert len(jobs) == 1, f"period {period} was enqueued {len(jobs)} times"
        assert jobs[0]["attempts"] <= 1 and jobs[0]["actor"] == "scheduler"
    # The tenant's expired memory was archived by exactly one job, once.
    records = client.get("/v1/audit", params={"agent": agent, "op": "expire"}).json()["items"]
    assert [r["memory_ids"] for r in records] == [[expired["id"]]]
    [child] = client.get("/v1/jobs", params={"agent": agent, "kind": "expire"}).json()["items"]
    assert child["status"] == "succeeded" and child["result"] == {"archived": 1}
    assert child["parent_id"] in {jobs[0]["id"] for jobs in seen.values()}
