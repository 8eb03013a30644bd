"""Search latency while a large batch is being embedded and written, on the embedded backend.

A client stores 1,000 memories in one batch call while another searches, one search after
another, until the batch lands; five rounds with the encoder's two lanes (shipped), interleaved
with five where single queries share the batch's lane (the behaviour before the split).

    .venv/bin/python bench/search_during_batch.py
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from bench.ingest_search import percentile
from graph.memories.model import NewMemory
from graph.retrieval.model import SearchQuery
from graph.services import Services
from graph.settings import Settings


async def round_(services: Services, texts: list[str], qs: list[str], agent: str) -> list[float]:
    batch = asyncio.create_task(services.writes.store_many([NewMemory(agent=agent, text=t) for t in texts]))
    latencies, i = [], 0
    while not batch.done():
        t0 = time.perf_counter()
        await services.retrieval.search(SearchQuery(agent=agent, text=qs[i % len(qs)], limit=10))
        latencies.append((time.perf_counter() - t0) * 1000)
        i += 1
    await batch
    return latencies


async def run(args: argparse.Namespace) -> None:
    services = await Services.start(Settings(data_dir=Path(tempfile.mkdtemp(prefix="credence-bench-")),
                                             neo4j_uri=None, backend="embedded"))
    try:
        agent = "bench-batch"
        corpus = memory_texts(2000, seed=1)
        for i in range(0, len(corpus), 1000):
            await services.writes.store_many([NewMemory(agent=agent, text=t) for t in corpus[i:i + 1000]])
        qs = queries(200)
        for q in qs[:50]:
            await services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10))
        encoder, lanes = services.encoder, (services.encoder._singles, services.encoder._batches)
        results: dict[str, list[float]] = {"two lanes (shipped)": [], "one lane (before)": []}
        idle = []
        for q in qs[50:150]:
            t0 = time.perf_counter()
            await services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10))
            idle.append((time.perf_counter() - t0) * 1000)
        for r in range(args.rounds):
            for label in results:
                encoder._singles = lanes[0] if label.startswith("two") else lanes[1]
                texts = memory_texts(args.batch, seed=100 + r * 2 + (label.startswith("one")))
                results[label] += await round_(services, texts, qs, agent)
        encoder._singles = lanes[0]
        print(f"searches while a {args.batch}-memory batch is stored ({args.rounds} rounds each, interleaved)")
        print("| lanes | searches | p50 | p95 | max |\n| --- | --- | --- | --- | --- |")
        print(f"| no batch running | {len(idle)} | {statistics.median(idle):.1f} ms | {percentile(idle, 95):.1f} ms "
              f"| {max(idle):.1f} ms |")
        for label, values in results.items():
            print(f"| {label} | {len(values)} | {statistics.median(values):.1f} ms | {percentile(values, 95):.1f} ms "
                  f"| {max(values):.1f} ms |")
    finally:
        await services.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
