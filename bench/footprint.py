"""Resident memory of the service and its database, as users run them: `python -m api` per backend.

    .venv/bin/python bench/footprint.py [--n 10000] [--backends embedded,neo4j] [--record]

Per backend, on a new data directory with the shipped settings (heaps included) unless --heap says
otherwise: the service's resident memory (its own /metrics gauge, process_resident_memory_bytes) and
the database process's (credence_backend_process_resident_memory_bytes) after start, after one
search, after storing N memories of the benchmark corpus (bench/corpus.py) over ten tenants in
batches of 256 and 100 searches; and each process's peak (VmHWM) over the whole run. Memory is not
timing: these figures hold on a busy machine. The model's ONNX export is made first, in its own
process, as `make model` does.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import memory_texts, queries  # noqa: E402
from bench.load_test import free_port, start_service, stop, wait_ready  # noqa: E402
from bench.record import record  # noqa: E402

BATCH = 256
AGENTS = [f"fp-{i}" for i in range(10)]
MB = 2**20


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def gauges(http: httpx.Client) -> tuple[float, float]:
    """(service RSS, database RSS) in MB, from the service's own /metrics."""
    values: dict[str, float] = {}
    for line in http.get("/metrics").text.splitlines():
        name, _, value = line.partition(" ")
        if name in ("process_resident_memory_bytes", "credence_backend_process_resident_memory_bytes"):
            values[name] = float(value)
    return (values["process_resident_memory_bytes"] / MB, values["credence_backend_process_resident_memory_bytes"] / MB)


def backend_pid(service: subprocess.Popen) -> int:
    """The database JVM: the service's child."""
    children = Path(f"/proc/{service.pid}/task/{service.pid}/children").read_text().split()
    return int(children[0])


def measure(backend: str, n: int, heap: str | None) -> list[tuple[str, str]]:
    data = Path(tempfile.mkdtemp(prefix=f"credence-footprint-{backend}-")) / "data"
    env: dict[str, str] = {}
    if heap:
        env["CREDENCE_EMBEDDED_HEAP" if backend == "embedded" else "CREDENCE_LOCAL_NEO4J_HEAP"] = heap
    subprocess.run([sys.executable, "-m", "graph.embedding.export"], cwd=ROOT, check=True,
                   env={**os.environ, "CREDENCE_DATA_DIR": str(data)}, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    port = free_port()
    base, log = f"http://127.0.0.1:{port}", data.parent / "service.log"
    service = start_service(backend, data, port, log, env)
    rows = []
    try:
        wait_ready(base, service, log)
        with httpx.Client(base_url=base, timeout=600) as http:
            started = gauges(http)
            qs = queries(101)
            assert http.post("/v1/search", json={"agent": AGENTS[0], "query": qs[0]}).status_code == 200
            searched = gauges(http)
            texts = memory_texts(n)
            t0 = time.perf_counter()
            for i in range(0, n, BATCH):
                chunk = texts[i:i + BATCH]
                body = {"memories": [{"agent": AGENTS[(i + j) % len(AGENTS)], "text": t} for j, t in enumerate(chunk)]}
                answer = http.post("/v1/memories:batch", json=body)
                assert answer.status_code == 201, answer.text
            ingest = n / (time.perf_counter() - t0)
            for i, q in enumerate(qs[1:]):
                assert http.post("/v1/search", json={"agent": AGENTS[i % len(AGENTS)], "query": q}).status_code == 200
            loaded = gauges(http)
            peaks = peak_mb(service.pid), peak_mb(backend_pid(service))
    finally:
        stop(service)
    heap_setting = heap or ("2g" if backend == "embedded" else "1g, page cache 256m")
    rows += [("database heap (-Xmx)", heap_setting),
             ("after start: service / database / both", _three(started)),
             ("after one search", _three(searched)),
             (f"after {n:,} memories stored (ten tenants, batches of {BATCH}) and 100 searches", _three(loaded)),
             ("peak over the run (VmHWM): service / database / both",
              f"{peaks[0]:,.0f} / {peaks[1]:,.0f} / {sum(peaks):,.0f} MB"),
             ("ingest over HTTP (provisional, shared cores)", f"{ingest:,.0f} memories/s")]
    return rows


def _three(g: tuple[float, float]) -> str:
    return f"{g[0]:,.0f} / {g[1]:,.0f} / {g[0] + g[1]:,.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--backends", default="embedded,neo4j")
    parser.add_argument("--heap", help="the database's JVM heap (default: the shipped setting)")
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    kinds = args.backends.split(",")
    columns = {kind: dict(measure(kind, args.n, args.heap)) for kind in kinds}
    labels = {"embedded": "embedded ArcadeDB", "neo4j": "local Neo4j 5.26"}
    lines = [f"### footprint, {args.n:,} memories", "",
             (f"{time.strftime('%Y-%m-%d')}, Linux {os.uname().machine}, {os.cpu_count()} cores, `python -m api` "
             "embedding on ONNX Runtime (torch never imported)"), "",
             f"| resident memory | {' | '.join(labels[k] for k in kinds)} |", f"| --- |{' --- |' * len(kinds)}"]
    for row in columns[kinds[0]]:
        lines.append(f"| {row} | {' | '.join(columns[k][row] for k in kinds)} |")
    section = "\n".join(lines) + "\n"
    print(section)
    if args.record:
        record(f"footprint-{args.n}{'-' + args.heap if args.heap else ''}", section)


if __name__ == "__main__":
    main()
