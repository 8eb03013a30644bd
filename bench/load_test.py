"""50 clients against a running service, over loopback HTTP, for a bounded time (issue 13).

The service runs as users run it (`python -m api`, its own process, embedded backend unless
`--backend neo4j`). Each client loops over a mixed workload: searches, contexts, plain stores,
claim writes on slots several clients share (so beliefs contend), feedback, reads and lists. At
the end it prints per operation the count, p50/p95/p99/max latency and the 4xx and 5xx answers,
then checks what the run promised: every acknowledged write is readable, no slot holds two
active values of one exclusive claim, and no acknowledged memory is duplicated.

    .venv/bin/python bench/load_test.py [--clients 50] [--seconds 300] [--backend embedded|neo4j] [--record]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import memory_texts, queries  # noqa: E402
from bench.ingest_search import percentile  # noqa: E402
from bench.record import record  # noqa: E402

AGENTS = [f"load-{i}" for i in range(5)]
SLOTS = ["lives_in", "works_at", "favourite_color"]
VALUES = ["Lisbon", "Porto", "Berlin", "Tokyo", "Oslo", "Lima"]
SOURCES = ["user_explicit", "user_implicit", "tool_output", "document", "inference"]
# op -> weight in the mix
MIX = {"search": 35, "context": 10, "store": 20, "claim": 15, "feedback": 5, "get": 10, "list": 5}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_service(backend: str, data_dir: Path, port: int, log: Path,
                  settings: dict[str, str] | None = None) -> subprocess.Popen:
    """The service's stderr goes to a file: a pipe nobody reads fills up (64 KB of the driver's retry
    warnings under contention) and then blocks the service's event loop on its next log line, which
    is what stalled the first 5-minute runs and their verification."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDENCE_"))}
    env.update(CREDENCE_BACKEND=backend, CREDENCE_DATA_DIR=str(data_dir), CREDENCE_PORT=str(port),
               CREDENCE_LOG_LEVEL="warning", **(settings or {}))
    with log.open("ab") as sink:
        return subprocess.Popen([sys.executable, "-m", "api"], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=sink)


def wait_ready(base: str, proc: subprocess.Popen, log: Path, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the service exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            if httpx.get(f"{base}/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit("the service did not become ready")


class Run:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.texts, self.queries = memory_texts(2_000, seed=seed), queries(200, seed=seed)
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: dict[str, Counter] = defaultdict(Counter)
        self.acknowledged: dict[str, set[str]] = defaultdict(set)  # agent -> ids answered 201/200
        self.errors: Counter = Counter()

    def request(self, rng: random.Random) -> tuple[str, str, str, dict | None, dict | None]:
        op = rng.choices(list(MIX), weights=list(MIX.values()))[0]
        agent = rng.choice(AGENTS)
        known = list(self.acknowledged[agent])
        if op in ("feedback", "get") and not known:
            op = "store"
        if op == "search":
            return op, "POST", "/v1/search", None, {"agent": agent, "query": rng.choice(self.queries), "limit": 10}
        if op == "context":
            return op, "POST", "/v1/context", None, {"agent": agent, "query": rng.choice(self.queries),
                                                     "max_tokens": 400}
        if op == "store":
            return op, "POST", "/v1/memories", None, {"agent": agent, "text": rng.choice(self.texts)}
        if op == "claim":
            slot, value = rng.choice(SLOTS), rng.choice(VALUES)
            return op, "POST", "/v1/memories", None, {
                "agent": agent, "text": f"The user's {slot.replace('_', ' ')} is {value}.",
                "claim": {"subject": "user", "predicate": slot, "value": value},
                "provenance": {"source": rng.choice(SOURCES)}}
        if op == "feedback":
            kind = rng.choice(["reinforce", "dispute"])
            return op, "POST", f"/v1/memories/{rng.choice(known)}/{kind}", {"agent": agent}, {}
        if op == "get":
            return op, "GET", f"/v1/memories/{rng.choice(known)}", {"agent": agent}, None
        return op, "GET", "/v1/memories", {"agent": agent, "limit": 20}, None

    async def client(self, http: httpx.AsyncClient, deadline: float, seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < deadline:
            op, method, path, params, body = self.request(rng)
            started = time.perf_counter()
            try:
                response = await http.request(method, path, params=params, json=body)
            except httpx.HTTPError as exc:
                self.errors[f"{op}: {type(exc).__name__}"] += 1
                continue
            self.latency[op].append((time.perf_counter() - started) * 1000)
            self.status[op][response.status_code] += 1
            if op in ("store", "claim") and response.status_code in (200, 201):
                self.acknowledged[body["agent"]].add(response.json()["id"])


EVERY_STATUS = "active,disputed,quarantined,superseded,archived".split(",")


async def list_all(http: httpx.AsyncClient, agent: str, statuses: list[str] = EVERY_STATUS) -> list[dict]:
    """Every memory of a tenant in the given statuses, page by page."""
    listed: list[dict] = []
    cursor = None
    while True:
        params = {"agent": agent, "limit": 200, "status": statuses, **({"cursor": cursor} if cursor else {})}
        page = (await http.get("/v1/memories", params=params)).json()
        listed += page["items"]
        cursor = page["next_cursor"]
        if not cursor:
            return listed


async def verify(base: str, run: Run) -> dict[str, int]:
    """Every acknowledged memory readable and listed once; at most one active value per slot."""
    found = {"acknowledged": 0, "missing": 0, "duplicated": 0, "slots with two active values": 0}
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        for agent in AGENTS:
            listed = await list_all(http, agent)
            ids = Counter(m["id"] for m in listed)
            found["acknowledged"] += len(run.acknowledged[agent])
            found["missing"] += len(run.acknowledged[agent] - set(ids))
            found["duplicated"] += sum(1 for n in ids.values() if n > 1)
            active = Counter(m["claim"]["predicate"] for m in listed
                             if m["status"] == "active" and m.get("claim") and m["claim"].get("exclusive", True)
                             and m["claim"]["subject"] == "user")
            found["slots with two active values"] += sum(1 for n in active.values() if n > 1)
    return found


def stop(service: subprocess.Popen) -> None:
    service.send_signal(signal.SIGTERM)
    try:
        service.wait(60)
    except subprocess.TimeoutExpired:
        service.kill()


def collisions(log: Path) -> list[tuple[str, int]]:
    """The service's count of retried write collisions, logged when it stops (graph/store/gateway.py)."""
    marker = "write collisions since start (unit at statement on record: retries): "
    lines = [line for line in log.read_text(errors="replace").splitlines() if marker in line]
    if not lines:
        return []
    parts = (part.rsplit(": ", 1) for part in lines[-1].split(marker, 1)[1].split("; "))
    return [(where, int(n)) for where, n in parts]


def latency_rows(latency: dict[str, list[float]], status: dict[str, Counter], ops: Iterable[str]) -> list[str]:
    """The latency table of a load run, one row per operation that ran: counts, percentiles, 4xx, 5xx."""
    lines = ["| operation | count | p50 ms | p95 ms | p99 ms | max ms | 4xx | 5xx |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for op in ops:
        values = latency.get(op, [])
        if not values:
            continue
        codes = status[op]
        lines.append(f"| {op} | {len(values):,} | {percentile(values, 50):.1f} | {percentile(values, 95):.1f} | "
                     f"{percentile(values, 99):.1f} | {max(values):.1f} | "
                     f"{sum(n for c, n in codes.items() if 400 <= c < 500)} | "
                     f"{sum(n for c, n in codes.items() if c >= 500)} |")
    return lines


def table(run: Run, seconds: float, clients: int, backend: str, checks: dict[str, int],
          collided: list[tuple[str, int]]) -> str:
    lines = [f"### load_test, {clients} clients, {seconds:.0f} s, {backend} backend", "",
             f"{time.strftime('%Y-%m-%d')}, Linux {os.uname().machine}, {os.cpu_count()} cores", "",
             *latency_rows(run.latency, run.status, MIX)]
    total = sum(len(v) for v in run.latency.values())
    lines += ["", (f"{total:,} requests ({total / seconds:.0f}/s); transport errors: "
               f"{dict(run.errors) or 'none'}; answers by status: "
               f"{dict(sum((c for c in run.status.values()), Counter()).most_common())}"), "",
              "| check after the run | value |", "| --- | --- |"]
    lines += [f"| {k} | {v:,} |" for k, v in checks.items()]
    lines += ["", "| write collisions retried: unit of work at statement on record | retries |", "| --- | --- |"]
    lines += [f"| {where} | {n:,} |" for where, n in collided] or ["| none | 0 |"]
    return "\n".join(lines) + "\n"


async def main_async(args: argparse.Namespace) -> int:
    data = Path(tempfile.mkdtemp(prefix="credence-load-")) / "data"
    log = data.parent / "service.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    service = start_service(args.backend, data, port, log)
    print(f"service log: {log}", file=sys.stderr)
    try:
        wait_ready(base, service, log)
        run = Run(args.seed)
        limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
        async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
            started = time.monotonic()
            deadline = started + args.seconds
            await asyncio.gather(*(run.client(http, deadline, args.seed * 1000 + i) for i in range(args.clients)))
            elapsed = time.monotonic() - started
        checks = await verify(base, run)
        stop(service)
        section = table(run, elapsed, args.clients, args.backend, checks, collisions(log))
        print(section)
        if args.record:
            record(f"load-{args.backend}", section)
        five_xx = sum(n for codes in run.status.values() for c, n in codes.items() if c >= 500)
        broken = five_xx or checks["missing"] or checks["duplicated"] or checks["slots with two active values"]
        return 1 if broken else 0
    finally:
        if service.poll() is None:
            stop(service)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--backend", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    sys.exit(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
