"""What an embedding model costs through the service, on each backend: ingest time per memory and a
query's embedding and whole default search, for two or more models side by side.

    .venv/bin/python bench/embedding_cost.py [--backends embedded,neo4j] [--turns 256] [--queries 60] \
        default /tmp/recall-mpnet/model/all-mpnet-base-v2

Per backend, one service per model is started at once (each on a graph of its own, with its model as
CREDENCE_EMBEDDING_MODEL would load it: ONNX Runtime), and the models take turns, so a busy moment
of a shared machine falls on all of them alike: REALTALK turns of one tuning-half chat are stored
batch by batch (`WriteService.store_many`, 64 a call, each turn with its session as its thread), the
models' order alternating per batch; then REALTALK questions of that chat are asked one by one,
alternating the same way, each first embedded alone (`RetrievalService.embed`) and then searched as
a user searches (`RetrievalService.search` with no embedding given: hybrid, limit 10, the default
rerank and neighbour turns; it embeds again). One tenant of fewer than 500 memories: the exact scans
(docs/retrieval.md), where the cosine's cost grows with the model's dimensions.

Timing figures from a loaded machine are provisional; the ratio between models measured side by side
is what carries (docs/benchmarks.md, "Embedding models")."""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.datasets import realtalk
from bench.datasets.common import Turn, split
from graph.embedding.encoder import Embedder, load_embedder
from graph.memories.model import NewMemory
from graph.retrieval.model import SearchQuery
from graph.services import Services
from graph.settings import Settings

AGENT = "bench-embedding-cost"
BATCH = 64  # the service's ingest batch
MODEL_CACHE = Path(tempfile.gettempdir()) / "credence-models"  # ONNX exports, as bench/embedding_models.py
SEED = 12  # the conversation benchmarks' split


def quantile(xs: list[float], q: int) -> float:
    return statistics.quantiles(xs, n=100)[q - 1] if len(xs) > 1 else xs[0]


def alternate(names: list[str], n: int) -> list[str]:
    return names if n % 2 == 0 else names[::-1]


async def measure(backend: str, models: dict[str, str | None], embedders: dict[str, Embedder], turns: list[Turn],
                  questions: list[str], heap: str, root: Path) -> list[str]:
    names = list(models)
    services: dict[str, Services] = {}
    try:
        for name in names:
            started = time.perf_counter()
            services[name] = await Services.start(Settings(
                data_dir=root / backend / name, backend=backend, neo4j_uri=None, embedded_heap=heap,
                local_neo4j_heap=heap, embedding_model=models[name]), embedders[name])
            print(f"{backend}: {name} started in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        warm = [NewMemory(agent=AGENT + "-warm", text=t.text, event_at=t.event_at, thread=t.thread,
                          secrets="redact") for t in turns[:16]]
        for name in names:  # first-call allocation and the first statements' plans are not the steady cost
            await services[name].writes.store_many(warm)
        ingest: dict[str, float] = dict.fromkeys(names, 0.0)
        for n, start in enumerate(range(0, len(turns), BATCH)):
            chunk = [NewMemory(agent=AGENT, text=t.text, event_at=t.event_at, thread=t.thread, secrets="redact")
                     for t in turns[start:start + BATCH]]
            for name in alternate(names, n):
                t0 = time.perf_counter()
                await services[name].writes.store_many(chunk)
                ingest[name] += time.perf_counter() - t0
        await asyncio.sleep(3)  # the after-write probe (docs/retrieval.md) runs once writes pause, not in the timings
        for name in names:
            for q in questions[:5]:
                await services[name].retrieval.search(SearchQuery(agent=AGENT, text=q, track_access=False))
        embed: dict[str, list[float]] = {name: [] for name in names}
        search: dict[str, list[float]] = {name: [] for name in names}
        for n, q in enumerate(questions):
            for name in alternate(names, n):
                retrieval = services[name].retrieval
                t0 = time.perf_counter()
                await retrieval.embed(q)
                t1 = time.perf_counter()
                await retrieval.search(SearchQuery(agent=AGENT, text=q, track_access=False))
                t2 = time.perf_counter()
                embed[name].append((t1 - t0) * 1000)
                search[name].append((t2 - t1) * 1000)
    finally:
        for s in services.values():
            await s.close()
    return [f"| {backend} | {name} | {embedders[name].dimensions} | {ingest[name] / len(turns) * 1000:.1f} | "
            f"{quantile(embed[name], 50):.1f} / {quantile(embed[name], 95):.1f} | "
            f"{quantile(search[name], 50):.1f} / {quantile(search[name], 95):.1f} |" for name in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="+", help="local model directories; `default` is the shipped MiniLM")
    parser.add_argument("--backends", default="embedded,neo4j")
    parser.add_argument("--turns", type=int, default=256, help="turns stored per model (one tenant, under 500)")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--heap", default="1g")
    args = parser.parse_args()
    ds = realtalk.load()
    if ds is None:
        sys.exit("REALTALK is absent: run .venv/bin/python -m bench.datasets.fetch_realtalk")
    chat = split(list(ds.conversations), SEED)[0][0]  # a tuning-half chat
    turns = ds.conversations[chat][:args.turns]
    questions = [q.text for q in ds.questions if q.conversation == chat][:args.queries]
    models = {("all-MiniLM-L6-v2" if m == "default" else Path(m).name): (None if m == "default" else m)
              for m in args.models}
    embedders = {name: load_embedder(path, MODEL_CACHE) for name, path in models.items()}
    print(f"{len(turns)} turns of REALTALK {chat} stored per model, {len(questions)} of its questions asked; "
          "models alternating per batch and per question")
    print()
    print("| backend | model | dims | ingest ms per memory | query embedding ms p50 / p95 | "
          "search ms p50 / p95 (embedding included) |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="credence-embedding-cost-") as tmp:
        for backend in args.backends.split(","):
            for line in asyncio.run(measure(backend, models, embedders, turns, questions, args.heap, Path(tmp))):
                print(line, flush=True)


if __name__ == "__main__":
    main()
