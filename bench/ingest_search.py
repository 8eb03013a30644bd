"""Ingest and search speed of the service layer on the embedded backend (no HTTP).

Stores N memories in batches, then times the same searches (query embedding included) as vector
search without rerank, as the default hybrid search with rerank, with explain, without access
tracking, and as contexts with a token budget, interleaved query by query so that drift affects
every variant alike. Prints a table; with --record, writes it into docs/benchmarks.md.

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
from graph.embedding import encoder as embedder  # noqa: E402
from graph.context.service import ContextQuery    # noqa: E402
from graph.memories.model import NewMemory
from graph.retrieval.model import SearchQuery  # noqa: E402
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

        async def clock(make, agent: str, q: str) -> tuple[float, str]:
            t0 = time.perf_counter()
            result = await make(agent, q)
            return (time.perf_counter() - t0) * 1000, getattr(result, "strategy", "-")

        async def timed(make, queries_: list[str], agent: str) -> tuple[list[float], set]:
            runs = [await clock(make, agent, q) for q in queries_]
            return [ms for ms, _ in runs], {strategy for _, strategy in runs}

        def search(**options):
            return lambda agent, q: services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10, **options))

        async def untracked_search(agent: str, q: str):
            services.access.enabled = False
            try:
                return await services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10))
            finally:
                services.access.enabled = True

        variants = {
            "raw": search(mode="vector", rerank=None),
            "default": search(),  # hybrid + rerank
            "explained": search(explain=True),
            "untracked": untracked_search,
            "context": lambda agent, q: services.context.context(
                ContextQuery(search=SearchQuery(agent=agent, text=q), max_tokens=args.context_tokens)),
        }
        # Interleaved, query by query, so that drift (JIT, GC, the access flush) hits every variant alike.
        timings: dict[str, tuple[list[float], set]] = {name: ([], set()) for name in variants}
        for q in qs[args.warmup:]:
            agent = rng.choice(agents)
            for name, make in variants.items():
                ms, strategy = await clock(make, agent, q)
                timings[name][0].append(ms)
                timings[name][1].add(strategy)
        timed_qs = qs[args.warmup:]
        (raw, raw_strategies), (latencies, strategies) = timings["raw"], timings["default"]
        explained, untracked, contexts = timings["explained"][0], timings["untracked"][0], timings["context"][0]
        # What the tracker writes for a second's worth of searches at this rate, in one flush.
        await services.access.flush()
        burst = max(1, int(1000 / statistics.median(latencies)))
        for q in timed_qs[:burst]:
            await services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
        t0 = time.perf_counter()
        flushed = await services.access.flush()
        flush_ms = (time.perf_counter() - t0) * 1000

        if args.trace:
            for i in range(0, len(latencies), 100):
                window = latencies[i:i + 100]
                print(f"searches {i}-{i + len(window)}: p50 {statistics.median(window):.1f} ms, "
                      f"p95 {percentile(window, 95):.1f} ms, max {max(window):.1f} ms")
        steps = await breakdown(services, timed_qs[:200], agents, rng)
        # A small tenant in the same crowded index: ranked exactly, not through the ANN index.
        small = "bench-small"
        await services.memories.create_many([NewMemory(agent=small, text=t) for t in memory_texts(50, seed=5)])
        small_latencies, small_strategies = await timed(search(), qs[:args.searches], small)
        backend_pid = services.backend.child.process.pid
        rows = [
            ("memories", f"{args.n:,} across {args.agents} agents"),
            ("ingest", f"{args.n / ingest_seconds:,.0f} memories/s (batch {args.batch}, {args.writers} writers, "
                       "embedding included)"),
            ("index warm-up", f"{warmup_seconds:.1f} s for the first {args.warmup} searches"),
            ("vector search, no rerank, p50 / p95 / p99", f"{_ms(raw)}, strategy {'/'.join(sorted(raw_strategies))}"),
            ("hybrid search + rerank (default), p50 / p95 / p99", f"{_ms(latencies)}, strategy "
                                                                   f"{'/'.join(sorted(strategies))}"),
            ("the same with explain, p50 / p95 / p99", f"{_ms(explained)} (p95 "
                                                       f"{_overhead(explained, latencies)} vs without)"),
            ("the same without access tracking, p50 / p95 / p99", f"{_ms(untracked)}"),
            (f"access-count flush after {burst} searches", f"{flush_ms:.1f} ms for {flushed} memories, one statement "
                                                             "per tenant, off the request path"),
            (f"context, max_tokens {args.context_tokens}, p50 / p95 / p99", _ms(contexts)),
            ("searches per row", f"{len(timed_qs)}, limit 10"),
            ("small tenant (50), hybrid + rerank, p50 / p95 / p99", f"{_ms(small_latencies)}, strategy "
                                                                    f"{'/'.join(sorted(small_strategies))}"),
            *steps,
            ("service RSS", f"{rss_mb(os.getpid()):,.0f} MB"),
            ("backend RSS", f"{rss_mb(backend_pid):,.0f} MB (JVM -Xmx{args.heap})"),
        ]
        return rows
    finally:
        await services.close()


async def breakdown(services: Services, qs: list[str], agents: list[str], rng: random.Random) -> list[tuple[str, str]]:
    """Where a default search spends its time: the model call and each named query, timed inside
    real searches (the full-text query overlaps the model call, so the steps add up to more than
    the whole). Then where a single query is embedded, interleaved like the main table."""
    steps: dict[str, list[float]] = {}

    def timing(name: str, call):
        async def timed_call(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return await call(*args, **kwargs)
            finally:
                steps.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
        return timed_call

    runner, encoder = services.runner, services.encoder
    read, encode = runner.read, encoder.encode
    runner.read = lambda name, **params: timing(name, read)(name, **params)  # type: ignore[method-assign]
    encoder.encode = timing("embed the query", encode)  # type: ignore[method-assign]
    try:
        for q in qs:
            await services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
    finally:
        del runner.read, encoder.encode
    rows = [(f"step: {name}, p50 / p95 / p99", f"{_ms(values)} ({len(values)} calls in {len(qs)} searches)")
            for name, values in steps.items()]

    # The choices in graph.embedder and graph.embedding.onnx_encoder: a single query on ONNX Runtime, against
    # torch on one thread and on all of them.
    model, shipped = services.encoder.embedder, embedder.SINGLE_THREAD_MAX
    onnx = getattr(model, "query_encoder", None)
    runtimes = {"ONNX Runtime, one thread (shipped)": (onnx, shipped), "torch, one thread": (None, shipped),
                "torch, all threads": (None, 0)}
    by_runtime: dict[str, list[float]] = {label: [] for label in runtimes}
    try:
        for q in qs:
            agent = rng.choice(agents)
            for label, (runtime, single_max) in runtimes.items():
                model.query_encoder, embedder.SINGLE_THREAD_MAX = runtime, single_max
                t0 = time.perf_counter()
                await services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10))
                by_runtime[label].append((time.perf_counter() - t0) * 1000)
    finally:
        model.query_encoder, embedder.SINGLE_THREAD_MAX = onnx, shipped
    return rows + [(f"search with the query embedded on {label}, p50 / p95 / p99", _ms(values))
                   for label, values in by_runtime.items()]


def _ms(values: list[float]) -> str:
    return (f"{statistics.median(values):.1f} / {percentile(values, 95):.1f} / "
            f"{percentile(values, 99):.1f} ms")


def _overhead(values: list[float], base: list[float]) -> str:
    return f"{(percentile(values, 95) / percentile(base, 95) - 1) * 100:+.0f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--writers", type=int, default=2, help="batch calls in flight at once")
    parser.add_argument("--searches", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=200, help="searches before timing (JIT, HNSW build)")
    parser.add_argument("--context-tokens", type=int, default=1000, help="max_tokens of the timed contexts")
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
