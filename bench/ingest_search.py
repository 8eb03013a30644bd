"""Ingest and search speed of the service layer on the embedded backend (no HTTP).

Stores N memories in batches, then times searches (query embedding included). Prints a table;
with --record, writes it into docs/benchmarks.md.

    .venv/bin/python bench/ingest_search.py                 # 10k memories
    .venv/bin/python bench/ingest_search.py --n 100000      # 100k
"""
from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries  # noqa: E402
from bench.record import record  # noqa: E402
from graph.model import NewMemory, SearchQuery  # noqa: E402
from graph.services import Services  # noqa: E402
from graph.settings import Settings  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


async def run(args: argparse.Namespace) -> list[tuple[str, str]]:
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="credence-bench-"))
    services = await Services.start(Settings(data_dir=data_dir, embedded_heap=args.heap))
    try:
        texts = memory_texts(args.n)
        agents = [f"bench-{i}" for i in range(args.agents)]
        offsets = iter(range(0, args.n, args.batch))

        async def writer() -> None:
            # Each writer is a client with one batch call in flight; with two, one batch's write
            # overlaps the next one's encoding.
            for offset in offsets:
                chunk = texts[offset:offset + args.batch]
                await services.memories.create_many(
                    [NewMemory(agent=agents[(offset + j) % len(agents)], text=t) for j, t in enumerate(chunk)])

        started = time.perf_counter()
        await asyncio.gather(*(writer() for _ in range(args.writers)))
        ingest_seconds = time.perf_counter() - started

        rng = random.Random(3)
        qs = queries(args.searches + args.warmup)
        warm_started = time.perf_counter()
        for q in qs[:args.warmup]:  # the first vector queries after a bulk load build the HNSW graph
            await services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
        warmup_seconds = time.perf_counter() - warm_started

        latencies, strategies = [], set()
        for q in qs[args.warmup:]:
            t0 = time.perf_counter()
            result = await services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
            latencies.append((time.perf_counter() - t0) * 1000)
            strategies.add(result.strategy)

        if args.trace:
            for i in range(0, len(latencies), 100):
                window = latencies[i:i + 100]
                print(f"searches {i}-{i + len(window)}: p50 {statistics.median(window):.1f} ms, "
                      f"p95 {percentile(window, 95):.1f} ms, max {max(window):.1f} ms")
        # A small tenant in the same crowded index: ranked exactly, not through the ANN index.
        small = "bench-small"
        await services.memories.create_many([NewMemory(agent=small, text=t) for t in memory_texts(50, seed=5)])
        small_latencies, small_strategies = [], set()
        for q in qs[:args.searches]:
            t0 = time.perf_counter()
            result = await services.retrieval.search(SearchQuery(agent=small, text=q, limit=10))
            small_latencies.append((time.perf_counter() - t0) * 1000)
            small_strategies.add(result.strategy)
        backend_pid = services.backend.embedded.process.pid
        rows = [
            ("memories", f"{args.n:,} across {args.agents} agents"),
            ("ingest", f"{args.n / ingest_seconds:,.0f} memories/s (batch {args.batch}, {args.writers} writers, "
                       "embedding included)"),
            ("index warm-up", f"{warmup_seconds:.1f} s for the first {args.warmup} searches"),
            ("search p50", f"{statistics.median(latencies):.1f} ms"),
            ("search p95", f"{percentile(latencies, 95):.1f} ms"),
            ("search p99", f"{percentile(latencies, 99):.1f} ms"),
            ("searches", f"{len(latencies)}, limit 10, strategy {'/'.join(sorted(strategies))}"),
            ("small tenant (50) p50 / p95", f"{statistics.median(small_latencies):.1f} / "
                                            f"{percentile(small_latencies, 95):.1f} ms, strategy "
                                            f"{'/'.join(sorted(small_strategies))}"),
            ("service RSS", f"{rss_mb(os.getpid()):,.0f} MB"),
            ("backend RSS", f"{rss_mb(backend_pid):,.0f} MB (JVM -Xmx{args.heap})"),
        ]
        return rows
    finally:
        await services.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--writers", type=int, default=2, help="batch calls in flight at once")
    parser.add_argument("--searches", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=200, help="searches before timing (JIT, HNSW build)")
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--data-dir", help="default: a new temporary directory")
    parser.add_argument("--trace", action="store_true", help="print latency per window of 100 searches")
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    rows = asyncio.run(run(args))
    title = f"ingest_search, {args.n:,} memories"
    machine = f"{date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    table = "\n".join(["| measure | value |", "| --- | --- |", *(f"| {k} | {v} |" for k, v in rows)])
    print(f"{title}\n{machine}\n\n{table}")
    if args.record:
        record(f"ingest_search-{args.n}", f"### {title}\n\n{machine}\n\n{table}\n")


if __name__ == "__main__":
    main()
