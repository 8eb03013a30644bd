"""Speed of an embedding model as the service runs it: batch encoding (ingest) and single queries.

    .venv/bin/python bench/embedding_models.py                      # the shipped all-MiniLM-L6-v2
    .venv/bin/python bench/embedding_models.py default /path/to/model ...   # it, then any local models

Per model: dimensions, size on disk, the licence its model card declares, ingest sentences/s
(real REALTALK turns, encoded in calls of 64) and query embedding latency p50/p95 (real REALTALK
questions, one at a time), on the runtime the service uses: ONNX Runtime, or torch for a model the
export does not cover. The model is loaded through `load_embedder`, as the service loads it
(ONNX Runtime against torch for the shipped model: bench/embedding_runtime.py). Quality is
measured by bench/conversation_quality.py --model.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.datasets import realtalk
from graph.core.errors import StartupError
from graph.embedding.encoder import load_embedder
from graph.embedding.exports import model_location

MAX_CHARS = 8_000  # as bench/conversation_quality.py
CALL = 64  # texts per call


def size_on_disk(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def licence(path: Path) -> str:
    card = path / "README.md"
    found = re.search(r"^license:\s*(\S+)", card.read_text(errors="replace"), re.M) if card.exists() else None
    return found.group(1) if found else "not stated in the model card"


def measure(model: str | None, sentences: list[str], queries: list[str], cache: Path) -> dict:
    try:
        embedder = load_embedder(model, cache)
    except StartupError:  # a model the ONNX export does not cover: the service would need the torch runtime
        embedder = load_embedder(model, cache, "torch")
    path = Path(model_location(model))
    embedder.encode(sentences[:CALL])  # warm-up: first-call allocation is not ingest speed
    started = time.perf_counter()
    for i in range(0, len(sentences), CALL):
        embedder.encode(sentences[i:i + CALL])
    ingest = len(sentences) / (time.perf_counter() - started)
    for q in queries[:10]:
        embedder.encode([q])
    times = []
    for q in queries:
        t0 = time.perf_counter()
        embedder.encode([q])
        times.append((time.perf_counter() - t0) * 1000)
    cuts = statistics.quantiles(times, n=100)
    return {"model": embedder.name, "licence": licence(path), "size_mb": size_on_disk(path) / 1e6,
            "dims": embedder.dimensions, "ingest_per_s": ingest,
            "query_p50": cuts[49], "query_p95": cuts[94], "runtime": embedder.runtime}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", help="local model directories; `default` (or none) is the shipped MiniLM")
    parser.add_argument("--sentences", type=int, default=1024, help="REALTALK turns encoded for ingest speed")
    parser.add_argument("--queries", type=int, default=300, help="REALTALK questions embedded one at a time")
    args = parser.parse_args()
    ds = realtalk.load()
    if ds is None:
        sys.exit("REALTALK is absent: run .venv/bin/python -m bench.datasets.fetch_realtalk")
    turns = [t.text[:MAX_CHARS] for ts in ds.conversations.values() for t in ts][:args.sentences]
    questions = [q.text for q in ds.questions][:args.queries]
    cache = Path(tempfile.gettempdir()) / "credence-models"
    print("| model | licence | size on disk | dims | ingest sentences/s | query ms p50 / p95 (runtime) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for model in args.models or ["default"]:
        r = measure(None if model == "default" else model, turns, questions, cache)
        print(f"| {r['model']} | {r['licence']} | {r['size_mb']:.0f} MB | {r['dims']} | {r['ingest_per_s']:.0f} | "
              f"{r['query_p50']:.1f} / {r['query_p95']:.1f} ({r['runtime']}) |", flush=True)


if __name__ == "__main__":
    main()
