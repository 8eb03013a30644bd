"""Ingest and search speed of the service layer (no HTTP) on both local backends in one run:
the embedded ArcadeDB and a local Neo4j 5.26, with one model shared by both.

Stores the same N memories in batches into each backend, then times the same searches (query
embedding included) as vector search without rerank, as the default hybrid search with rerank,
with explain, without access tracking, and as contexts with a token budget. Searches are
interleaved query by query across variants and backends, so that drift affects every cell alike.
Two references run on the same corpus and queries: a plain vector store (a chroma collection
filtered by tenant, the same ONNX query encoder) and the floor (exact numpy over the tenant's
vectors plus the query embedding), and the service's encoder alone on the corpus in the ingest's
batches, the ceiling that ingest is compared with. Prints a table; with --record, writes it into
docs/benchmarks.md.

    .venv/bin/python bench/ingest_search.py                 # 10k memories, both backends
    .venv/bin/python bench/ingest_search.py --n 100000      # 100k
    .venv/bin/python bench/ingest_search.py --backends embedded
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

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from bench.record import record
from graph.context.service import ContextQuery
from graph.embedding import encoder as embedder
from graph.memories.model import NewMemory
from graph.retrieval.model import SearchQuery
from graph.services import Services
from graph.settings import Settings

LABELS = {"embedded": "embedded ArcadeDB", "neo4j": "local Neo4j 5.26"}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class Bench:
    """One backend's service with the corpus loaded, and the timings taken on it."""

    def __init__(self, kind: str, services: Services, started_s: float) -> None:
        self.kind, self.services, self.started_s = kind, services, started_s
        self.ingest_rate = 0.0  # memories/s
        self.rows: dict[str, str] = {"start-up (backend + schema, model shared)": f"{started_s:.1f} s"}

    def search(self, **options):
        return lambda agent, q: self.services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10, **options))

    def variants(self, context_tokens: int) -> dict:
        async def untracked(agent: str, q: str):
            self.services.access.enabled = False
            try:
                return await self.services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10))
            finally:
                self.services.access.enabled = True

        return {
            "raw": self.search(mode="vector", rerank=None),
            "default": self.search(),  # hybrid + rerank
            "explained": self.search(explain=True),
            "untracked": untracked,
            "context": lambda agent, q: self.services.context.context(
                ContextQuery(search=SearchQuery(agent=agent, text=q), max_tokens=context_tokens)),
        }


async def start(kind: str, data_dir: Path, model, heap: str) -> Bench:
    t0 = time.perf_counter()
    settings = Settings(data_dir=data_dir / kind, backend=kind, neo4j_uri=None, embedded_heap=heap,
                        local_neo4j_heap=heap)
    services = await Services.start(settings, model)
    return Bench(kind, services, time.perf_counter() - t0)


async def ingest(bench: Bench, texts: list[str], agents: list[str], args: argparse.Namespace) -> None:
    offsets = iter(range(0, len(texts), args.batch))

    async def writer() -> None:
        # Each writer is a client with one batch call in flight; with two, one batch's write
        # overlaps the next one's encoding.
        for offset in offsets:
            chunk = texts[offset:offset + args.batch]
            await bench.services.writes.store_many(
                [NewMemory(agent=agents[(offset + j) % len(agents)], text=t) for j, t in enumerate(chunk)])

    started = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(args.writers)))
    seconds = time.perf_counter() - started
    bench.ingest_rate = len(texts) / seconds
    bench.rows["ingest"] = (f"{len(texts) / seconds:,.0f} memories/s (batch {args.batch}, {args.writers} writers, "
                            "embedding included)")


async def warm(bench: Bench, qs: list[str], agents: list[str], rng: random.Random) -> None:
    """The first searches after a bulk load: ArcadeDB builds its HNSW graph on the first one."""
    waits = []
    for q in qs:
        t0 = time.perf_counter()
        await bench.services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
        waits.append(time.perf_counter() - t0)
    bench.rows["index warm-up"] = (f"{sum(waits):.1f} s for the first {len(qs)} searches; the first one "
                                   f"{waits[0] * 1000:,.0f} ms")


async def clock(make, agent: str, q: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    result = await make(agent, q)
    return (time.perf_counter() - t0) * 1000, getattr(result, "strategy", "-")


async def run(args: argparse.Namespace) -> tuple[list[str], list[tuple[str, ...]]]:
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="credence-bench-"))
    model = embedder.load_embedder(None, data_dir / "models")
    service_rss = rss_mb(os.getpid())
    benches: list[Bench] = []
    try:
        for kind in args.backends:
            benches.append(await start(kind, data_dir, model, args.heap))
        texts = memory_texts(args.n)
        agents = [f"bench-{i}" for i in range(args.agents)]
        for bench in benches:
            await ingest(bench, texts, agents, args)
        rng = random.Random(3)
        qs = queries(args.searches + args.warmup)
        for bench in benches:
            await warm(bench, qs[:args.warmup], agents, random.Random(4))

        # Interleaved, query by query and backend by backend, so that drift (JIT, GC, the access
        # flush, the other JVM) hits every cell alike.
        variants = {b.kind: b.variants(args.context_tokens) for b in benches}
        timings = {(b.kind, name): ([], set()) for b in benches for name in variants[b.kind]}
        timed_qs = qs[args.warmup:]
        for q in timed_qs:
            agent = rng.choice(agents)
            for bench in benches:
                for name, make in variants[bench.kind].items():
                    ms, strategy = await clock(make, agent, q)
                    timings[(bench.kind, name)][0].append(ms)
                    timings[(bench.kind, name)][1].add(strategy)
        for bench in benches:
            await report(bench, timings, timed_qs, agents, rng, args)
        backend_rss = {b.kind: rss_mb(b.services.backend.child.process.pid) for b in benches}
        embedding_rate, references = await reference_rows(model, texts, agents, timed_qs, rng, args.batch)
    finally:
        for bench in benches:
            await bench.services.close()

    kinds = [b.kind for b in benches]
    measures = list(dict.fromkeys(k for b in benches for k in b.rows))
    rows = [(m, *(next(b.rows.get(m, "-") for b in benches if b.kind == k) for k in kinds)) for m in measures]
    rows.append(((f"ingest against the model alone ({embedding_rate:,.0f} texts/s: the service's encoder on the "
                  f"corpus in batches of {args.batch}, one caller, after the searches)"),
                 *(f"{b.ingest_rate / embedding_rate:.0%}" for b in benches)))
    rows.append(("backend RSS", *(f"{backend_rss[k]:,.0f} MB (JVM -Xmx{args.heap})" for k in kinds)))
    rows.append(("service RSS (one process, model shared by both backends)",
                 *([f"{service_rss:,.0f} MB before the backends; {rss_mb(os.getpid()):,.0f} MB at the end"]
                   * len(kinds))))
    for label, value in references:
        rows.append((label, *([value] * len(kinds))))
    return [LABELS[k] for k in kinds], rows


async def report(bench: Bench, timings: dict, timed_qs: list[str], agents: list[str], rng: random.Random,
                 args: argparse.Namespace) -> None:
    services, kind = bench.services, bench.kind
    (raw, raw_strategies), (latencies, strategies) = timings[(kind, "raw")], timings[(kind, "default")]
    explained, untracked, contexts = (timings[(kind, n)][0] for n in ("explained", "untracked", "context"))
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
            print(f"{kind} searches {i}-{i + len(window)}: p50 {statistics.median(window):.1f} ms, "
                  f"p95 {percentile(window, 95):.1f} ms, max {max(window):.1f} ms")
    steps = await breakdown(services, timed_qs[:200], agents, rng)
    # A small tenant in the same crowded index: ranked exactly, not through the ANN index.
    small = "bench-small"
    await services.writes.store_many([NewMemory(agent=small, text=t) for t in memory_texts(50, seed=5)])
    small_runs = [await clock(bench.search(), small, q) for q in timed_qs]
    bench.rows.update([
        ("vector search, no rerank, p50 / p95 / p99", f"{_ms(raw)}, strategy {'/'.join(sorted(raw_strategies))}"),
        ("hybrid search + rerank (default), p50 / p95 / p99", (f"{_ms(latencies)}, strategy "
                                                                f"{'/'.join(sorted(strategies))}")),
        ("the same with explain, p50 / p95 / p99",
         f"{_ms(explained)} (p95 {_overhead(explained, latencies)} vs without)"),
        ("the same without access tracking, p50 / p95 / p99", f"{_ms(untracked)}"),
        ("access-count flush after a second of searches", (f"{flush_ms:.1f} ms for {flushed} memories, one statement "
                                                           "per tenant, off the request path")),
        (f"context, max_tokens {args.context_tokens}, p50 / p95 / p99", _ms(contexts)),
        ("searches per cell", f"{len(timed_qs)}, limit 10, after {args.warmup} warm-up"),
        ("small tenant (50), hybrid + rerank, p50 / p95 / p99",
         f"{_ms([ms for ms, _ in small_runs])}, strategy {'/'.join(sorted({s for _, s in small_runs}))}"),
        *steps,
    ])


async def reference_rows(model, texts: list[str], agents: list[str], qs: list[str],
                         rng: random.Random, batch: int) -> tuple[float, list[tuple[str, str]]]:
    """The model alone on the corpus, in the ingest's batches (the ceiling ingest is measured
    against), then a plain vector store and the floor on the same corpus and queries: what the
    graph costs."""
    t0 = time.perf_counter()
    vectors = np.concatenate([np.asarray(model.encode(texts[i:i + batch]), dtype=np.float32)
                              for i in range(0, len(texts), batch)])
    embedding_rate = len(texts) / (time.perf_counter() - t0)
    owner = np.array([agents[i % len(agents)] for i in range(len(texts))])
    by_agent = {a: vectors[owner == a] for a in agents}
    picks = [(rng.choice(agents), q) for q in qs]

    floor = []
    for agent, q in picks:
        t0 = time.perf_counter()
        scores = by_agent[agent] @ model.encode([q])[0]
        np.argpartition(-scores, 10)[:10]
        floor.append((time.perf_counter() - t0) * 1000)
    rows = [("floor: exact numpy over the tenant + the ONNX query embedding, p50 / p95 / p99", _ms(floor))]
    try:
        import chromadb
    except ImportError:
        return embedding_rate, [*rows, ("plain vector store (chroma)", "not installed (pip install -e '.[bench]')")]
    client = chromadb.EphemeralClient()
    collection = client.create_collection("bench", configuration={"hnsw": {"space": "cosine"}})
    for i in range(0, len(texts), 4096):
        collection.add(ids=[str(j) for j in range(i, min(i + 4096, len(texts)))],
                       embeddings=vectors[i:i + 4096], metadatas=[{"agent": a} for a in owner[i:i + 4096]])
    plain = []
    for agent, q in picks[:min(len(picks), 100)]:  # warm-up
        collection.query(query_embeddings=[model.encode([q])[0]], n_results=10, where={"agent": agent})
    for agent, q in picks:
        t0 = time.perf_counter()
        collection.query(query_embeddings=[model.encode([q])[0]], n_results=10, where={"agent": agent})
        plain.append((time.perf_counter() - t0) * 1000)
    return embedding_rate, [*rows, (("plain vector store: a chroma collection filtered by tenant + the ONNX query "
                                     "embedding, p50 / p95 / p99"), _ms(plain))]


async def breakdown(services: Services, qs: list[str], agents: list[str], rng: random.Random) -> list[tuple[str, str]]:
    """Where a default search spends its time: the model call and each named query, timed inside
    real searches (the full-text query overlaps the model call, so the steps add up to more than
    the whole)."""
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
    read, read_one, encode = runner.read, runner.read_one, encoder.encode
    # Both ways a search reads: the candidate queries use read_one, hydration and scans read.
    runner.read = lambda name, **params: timing(name, read)(name, **params)  # type: ignore[method-assign]
    runner.read_one = lambda name, **params: timing(name, read_one)(name, **params)  # type: ignore[method-assign]
    encoder.encode = timing("embed the query", encode)  # type: ignore[method-assign]
    try:
        for q in qs:
            await services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
    finally:
        del runner.read, runner.read_one, encoder.encode
    rows = [(f"step: {name}, p50 / p95 / p99", f"{_ms(values)} ({len(values)} calls in {len(qs)} searches)")
            for name, values in steps.items()]

    # ONNX Runtime against torch, for queries and batches: bench/embedding_runtime.py (the service no longer
    # loads torch, so this process does not either, and its RSS is the service's).
    return rows


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
    parser.add_argument("--warmup", type=int, default=100, help="searches before timing (JIT, HNSW build)")
    parser.add_argument("--context-tokens", type=int, default=1000, help="max_tokens of the timed contexts")
    parser.add_argument("--heap", default="2g", help="JVM -Xmx of each backend")
    parser.add_argument("--backends", default="embedded,neo4j", type=lambda s: s.split(","),
                        help="comma-separated: embedded, neo4j")
    parser.add_argument("--data-dir", help="default: a new temporary directory")
    parser.add_argument("--trace", action="store_true", help="print latency per window of 100 searches")
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    columns, rows = asyncio.run(run(args))
    title = f"ingest_search, {args.n:,} memories"
    machine = (f"{date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}")
    table = "\n".join([f"| measure | {' | '.join(columns)} |", "| --- |" + " --- |" * len(columns),
                       *(f"| {' | '.join(r)} |" for r in rows)])
    print(f"{title}\n{machine}\n\n{table}")
    if args.record:
        record(f"ingest_search-{args.n}", f"### {title}\n\n{machine}\n\n{table}\n")


if __name__ == "__main__":
    main()
