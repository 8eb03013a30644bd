"""Several service processes on one Neo4j: mixed load over loopback HTTP, then what it promised.

Starts a local Neo4j 5.26 (graph/store/backends/local_neo4j.py, `make neo4j`), exports the model
once (`python -m graph.embedding.export`, as `make model` does), then N `python -m api` processes at
the same moment, all with NEO4J_URI pointing at that one database (so their start-ups, schema and
migrations included, race each other). Clients are spread over the processes, each process serving
clients at once: searches, plain stores, claims on exclusive slots every process writes to (so
beliefs contend across processes), reinforcements and disputes, reads and lists, and
read-your-own-writes probes (a store on one process, read at once on the next with the answer's
`Credence-Consistency-Token`). Afterwards, read through another process than the writer's:

- every acknowledged write is readable, and listed once;
- every exclusive slot that took an acknowledged claim holds exactly one active value;
- every memory's reinforcement and dispute counters equal the acknowledged feedback it got
  (a memory whose feedback got no answer, a 5xx or a lost connection, is left out and counted);
- every read-your-own-writes probe found its write;

and prints, per operation, count, p50 / p95 / p99 / max and 4xx / 5xx, with the resident memory of
every service process and of Neo4j at the end. Exit status 1 when a check fails or a 5xx came back.

    .venv/bin/python bench/multiprocess_load.py [--processes 3] [--clients 24] [--seconds 120] [--record]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import memory_texts, queries  # noqa: E402
from bench.load_test import free_port, latency_rows, list_all, stop, wait_ready  # noqa: E402
from bench.record import record  # noqa: E402
from graph.store.backends.local_neo4j import LocalNeo4j  # noqa: E402

TOKEN = "Credence-Consistency-Token"
AGENTS = [f"mp-{i}" for i in range(3)]
SLOTS = ["lives_in", "works_at", "favourite_color"]  # single-valued, exclusive by default
VALUES = ["Lisbon", "Porto", "Berlin", "Tokyo", "Oslo", "Lima"]
SOURCES = ["user_explicit", "user_implicit", "tool_output", "document"]
MIX = {"search": 30, "store": 20, "claim": 20, "feedback": 10, "get": 8, "read_own_write": 7, "list": 5}


@dataclass
class Service:
    base: str
    process: subprocess.Popen
    log: Path


@dataclass
class Cluster:
    """N service processes on one local Neo4j."""
    services: list[Service]
    neo4j: LocalNeo4j

    def rss_mb(self) -> tuple[list[float], float]:
        services = [float(_scrape_rss(s.base)) / 2**20 for s in self.services]
        assert self.neo4j.process is not None
        return services, _proc_rss(self.neo4j.process.pid) / 2**20


def _proc_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def _scrape_rss(base: str) -> float:
    for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
        if line.startswith("process_resident_memory_bytes "):
            return float(line.split()[1])
    return float("nan")


@contextmanager
def cluster(processes: int, root: Path, heap: str = "1g", pagecache: str = "256m",
            settings: dict[str, str] | None = None) -> Iterator[Cluster]:
    """A local Neo4j under `root`, the model exported once into root/data/models, then `processes`
    services started at the same moment on that database, sharing that data directory (with
    NEO4J_URI set it holds only the model's export)."""
    neo4j = LocalNeo4j(root / "neo4j-home", heap=heap, pagecache=pagecache)
    endpoint = neo4j.start()
    services: list[Service] = []
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDENCE_"))}
        env.update(CREDENCE_DATA_DIR=str(root / "data"), CREDENCE_LOG_LEVEL="warning",
                   NEO4J_URI=endpoint.bolt_uri, NEO4J_USER=endpoint.user, NEO4J_PASSWORD=endpoint.password,
                   NEO4J_DATABASE=endpoint.database, **(settings or {}))
        subprocess.run([sys.executable, "-m", "graph.embedding.export"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        neo4j.wait_port(120)
        for i in range(processes):
            port, log = free_port(), root / f"service-{i}.log"
            with log.open("ab") as sink:
                process = subprocess.Popen([sys.executable, "-m", "api"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                           stderr=sink, env={**env, "CREDENCE_PORT": str(port)})
            services.append(Service(f"http://127.0.0.1:{port}", process, log))
        for service in services:
            wait_ready(service.base, service.process, service.log)
        yield Cluster(services, neo4j)
    finally:
        for service in services:
            if service.process.poll() is None:
                stop(service.process)
        neo4j.stop()


@dataclass
class Run:
    seed: int
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    status: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    errors: Counter = field(default_factory=Counter)
    acknowledged: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # agent -> ids
    plain: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # agent -> plain stores
    claimed: set[tuple[str, str]] = field(default_factory=set)  # (agent, predicate) with an acknowledged claim
    feedback: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))  # id -> acknowledged kinds
    uncertain: set[str] = field(default_factory=set)  # ids whose feedback got no clear answer
    probes: Counter = field(default_factory=Counter)  # read-your-own-writes: found / missing

    def __post_init__(self) -> None:
        self.texts, self.queries = memory_texts(2_000, seed=self.seed), queries(200, seed=self.seed)

    async def call(self, http: httpx.AsyncClient, op: str, method: str, path: str, *,
                   params: dict | None = None, json: dict | None = None,
                   headers: dict | None = None) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            response = await http.request(method, path, params=params, json=json, headers=headers)
        except httpx.HTTPError as exc:
            self.errors[f"{op}: {type(exc).__name__}"] += 1
            return None
        self.latency[op].append((time.perf_counter() - started) * 1000)
        self.status[op][response.status_code] += 1
        return response

    async def client(self, own: httpx.AsyncClient, other: httpx.AsyncClient, deadline: float, seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < deadline:
            op = rng.choices(list(MIX), weights=list(MIX.values()))[0]
            agent = rng.choice(AGENTS)
            if op in ("feedback", "get") and not self.plain[agent]:
                op = "store"
            if op == "search":
                await self.call(own, op, "POST", "/v1/search",
                                json={"agent": agent, "query": rng.choice(self.queries), "limit": 10})
            elif op == "store":
                response = await self.call(own, op, "POST", "/v1/memories",
                                           json={"agent": agent, "text": rng.choice(self.texts)})
                if response is not None and response.status_code in (200, 201):
                    memory_id = response.json()["id"]
                    self.acknowledged[agent].add(memory_id)
                    self.plain[agent].append(memory_id)
            elif op == "claim":
                slot, value = rng.choice(SLOTS), rng.choice(VALUES)
                response = await self.call(own, op, "POST", "/v1/memories", json={
                    "agent": agent, "text": f"The user's {slot.replace('_', ' ')} is {value}.",
                    "claim": {"subject": "user", "predicate": slot, "value": value},
                    "provenance": {"source": rng.choice(SOURCES)}})
                if response is not None and response.status_code in (200, 201):
                    self.acknowledged[agent].add(response.json()["id"])
                    self.claimed.add((agent, slot))
            elif op == "feedback":
                # Plain memories only: a dispute on a claim could leave its slot without an active value.
                memory_id, kind = rng.choice(self.plain[agent]), rng.choice(["reinforce", "dispute"])
                response = await self.call(own, op, "POST", f"/v1/memories/{memory_id}/{kind}",
                                           params={"agent": agent}, json={})
                if response is None or response.status_code >= 500:
                    self.uncertain.add(memory_id)
                elif response.status_code == 200:
                    self.feedback[memory_id][kind] += 1
            elif op == "get":
                await self.call(own, op, "GET", f"/v1/memories/{rng.choice(self.plain[agent])}",
                                params={"agent": agent})
            elif op == "read_own_write":
                stored = await self.call(own, op, "POST", "/v1/memories",
                                         json={"agent": agent, "text": rng.choice(self.texts)})
                if stored is None or stored.status_code not in (200, 201):
                    continue
                memory_id, token = stored.json()["id"], stored.headers.get(TOKEN)
                self.acknowledged[agent].add(memory_id)
                read = await self.call(other, op, "GET", f"/v1/memories/{memory_id}", params={"agent": agent},
                                       headers={TOKEN: token} if token else None)
                found = token is not None and read is not None and read.status_code == 200
                self.probes["found" if found else "missing"] += 1
            else:
                await self.call(own, op, "GET", "/v1/memories", params={"agent": agent, "limit": 20})


async def verify(bases: list[str], run: Run) -> dict[str, int]:
    """Read through every process in turn, each agent's memories from another than most wrote them."""
    found = {"acknowledged writes": 0, "missing": 0, "listed twice": 0, "slots with an acknowledged claim": 0,
             "slots without exactly one active value": 0, "memories with acknowledged feedback": 0,
             "feedback counters off": 0, "memories whose feedback got no answer (not checked)": 0,
             "read-your-own-writes probes": sum(run.probes.values()), "probes that missed": run.probes["missing"]}
    for i, agent in enumerate(AGENTS):
        async with httpx.AsyncClient(base_url=bases[(i + 1) % len(bases)], timeout=120) as http:
            listed = await list_all(http, agent)
        ids = Counter(m["id"] for m in listed)
        found["acknowledged writes"] += len(run.acknowledged[agent])
        found["missing"] += len(run.acknowledged[agent] - set(ids))
        found["listed twice"] += sum(1 for n in ids.values() if n > 1)
        active = Counter(m["claim"]["predicate"] for m in listed if m["status"] == "active" and m.get("claim")
                         and m["claim"]["subject"] == "user" and m["claim"].get("exclusive", True))
        for slot in SLOTS:
            if (agent, slot) in run.claimed:
                found["slots with an acknowledged claim"] += 1
                found["slots without exactly one active value"] += active[slot] != 1
        by_id = {m["id"]: m for m in listed}
        for memory_id in set(run.plain[agent]) & (set(run.feedback) | run.uncertain):
            if memory_id in run.uncertain:
                found["memories whose feedback got no answer (not checked)"] += 1
                continue
            found["memories with acknowledged feedback"] += 1
            memory, counts = by_id.get(memory_id), run.feedback[memory_id]
            if memory is None or (memory["reinforcements"], memory["disputes"]) != (counts["reinforce"],
                                                                                   counts["dispute"]):
                found["feedback counters off"] += 1
    return found


FAILURES = ("missing", "listed twice", "slots without exactly one active value", "feedback counters off",
            "probes that missed")


def table(run: Run, seconds: float, args: argparse.Namespace, checks: dict[str, int], rss: tuple[list[float], float],
          started_in: float) -> str:
    services, database = rss
    lines = [(f"### multiprocess_load, {args.processes} service processes, {args.clients} clients, {seconds:.0f} s, "
              "one local Neo4j 5.26"), "",
             (f"{time.strftime('%Y-%m-%d')}, Linux {os.uname().machine}, {os.cpu_count()} cores; Neo4j heap "
              f"{args.heap}, page cache {args.pagecache}; all {args.processes} processes started at once, ready in "
              f"{started_in:.0f} s"), "",
             *latency_rows(run.latency, run.status, MIX)]
    total = sum(len(v) for v in run.latency.values())
    lines += ["", f"{total:,} requests ({total / seconds:.0f}/s); transport errors: {dict(run.errors) or 'none'}", "",
              "| check after the run | value |", "| --- | --- |"]
    lines += [f"| {k} | {v:,} |" for k, v in checks.items()]
    lines += ["", (f"Resident memory at the end: service processes {', '.join(f'{r:,.0f}' for r in services)} MB; "
                   f"Neo4j {database:,.0f} MB.")]
    return "\n".join(lines) + "\n"


async def load(bases: list[str], args: argparse.Namespace) -> tuple[Run, float]:
    run = Run(args.seed)
    per = max(1, args.clients // len(bases))
    limits = httpx.Limits(max_connections=per + 4, max_keepalive_connections=per + 4)
    clients = [httpx.AsyncClient(base_url=b, timeout=120, limits=limits) for b in bases]
    try:
        started = time.monotonic()
        deadline = started + args.seconds
        await asyncio.gather(*(run.client(clients[i % len(bases)], clients[(i + 1) % len(bases)], deadline,
                                          args.seed * 1000 + i) for i in range(args.clients)))
        return run, time.monotonic() - started
    finally:
        for c in clients:
            await c.aclose()


def main_run(args: argparse.Namespace) -> tuple[str, dict[str, int], Run]:
    root = Path(tempfile.mkdtemp(prefix="credence-multiprocess-"))
    print(f"logs and data: {root}", file=sys.stderr)
    try:
        began = time.monotonic()
        with cluster(args.processes, root, heap=args.heap, pagecache=args.pagecache) as running:
            started_in = time.monotonic() - began
            bases = [s.base for s in running.services]
            run, elapsed = asyncio.run(load(bases, args))
            checks = asyncio.run(verify(bases, run))
            rss = running.rss_mb()
        return table(run, elapsed, args, checks, rss, started_in), checks, run
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--processes", type=int, default=3)
    p.add_argument("--clients", type=int, default=24, help="spread over the processes")
    p.add_argument("--seconds", type=float, default=120)
    p.add_argument("--heap", default="1g", help="the local Neo4j's JVM heap")
    p.add_argument("--pagecache", default="256m", help="the local Neo4j's page cache")
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--keep", action="store_true", help="keep the data directory and the service logs")
    p.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    return p


def main() -> None:
    args = parser().parse_args()
    section, checks, run = main_run(args)
    print(section)
    if args.record:
        record(f"multiprocess-{args.processes}", section)
    five_xx = sum(n for codes in run.status.values() for c, n in codes.items() if c >= 500)
    sys.exit(1 if five_xx or any(checks[k] for k in FAILURES) else 0)


if __name__ == "__main__":
    main()
