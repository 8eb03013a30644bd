"""The embedding runtime, measured: ONNX Runtime (the service's) against torch (sentence-transformers),
batch throughput and single-query latency, and the resident memory of a process that embeds.

    .venv/bin/python bench/embedding_runtime.py [--texts 2048] [--long 256] [--rounds 3] [--queries 200]

Throughput: the benchmark corpus (bench/corpus.py, what bench/ingest_search.py ingests) in the
ingest benchmark's calls of 256 texts, and the same sentences joined into longer memories of 1 to 12
sentences (up to the model's 256-token limit). Every configuration runs once per round, the
configurations interleaved, so a neighbour's load on a shared machine hits all of them alike; the
figure is the median round. ONNX configurations are named threads x workers / sub-batch
(graph/embedding/onnx_encoder.py): intra-op threads per run, sub-batches run at once, texts per
sub-batch. Latency: one corpus query at a time, on one thread, both runtimes. Memory: each runtime
in a fresh process, after loading and embedding one call of 256 texts; `import torch` alone too.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from graph.embedding import exports
from graph.embedding.encoder import SentenceTransformerEmbedder
from graph.embedding.onnx_encoder import OnnxEmbedder

CALL = 256  # texts per call, as bench/ingest_search.py's batches
ONNX_CONFIGS = [(1, 1, 32), (2, 1, 32), (1, 2, 16), (1, 2, 32), (1, 2, 64)]

MEMORY_PROBE = """
import json, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from bench.corpus import memory_texts
runtime = {runtime!r}
def rss():
    return int(next(l for l in open('/proc/self/status') if l.startswith('VmRSS')).split()[1]) / 1024
if runtime == 'import torch':
    import torch, sentence_transformers
    print(json.dumps({{'loaded': rss(), 'after': rss()}}))
    raise SystemExit
from graph.embedding.encoder import load_embedder
embedder = load_embedder(None, Path({cache!r}), runtime)
loaded = rss()
embedder.encode(['a query'])
embedder.encode(memory_texts(256))
print(json.dumps({{'loaded': loaded, 'after': rss(), 'torch': 'torch' in sys.modules}}))
"""


def long_texts(n: int) -> list[str]:
    rng, sentences = random.Random(5), memory_texts(n * 6)
    return [". ".join(sentences[i * 6:i * 6 + rng.randint(1, 12)]) for i in range(n)]


def rate(encode, texts: list[str]) -> float:
    started = time.perf_counter()
    for i in range(0, len(texts), CALL):
        encode(texts[i:i + CALL])
    return len(texts) / (time.perf_counter() - started)


def latency(encode, qs: list[str]) -> tuple[float, float]:
    times = []
    for q in qs:
        t0 = time.perf_counter()
        encode([q])
        times.append((time.perf_counter() - t0) * 1000)
    cuts = statistics.quantiles(times, n=100)
    return cuts[49], cuts[94]


def memory(runtime: str, cache: Path) -> dict:
    code = MEMORY_PROBE.format(root=str(Path(__file__).resolve().parents[1]), runtime=runtime, cache=str(cache))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--texts", type=int, default=2048, help="corpus texts per round")
    parser.add_argument("--long", type=int, default=256, help="longer memories per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    cache = Path(tempfile.gettempdir()) / "credence-models"
    directory = exports.load(None, cache).directory  # exported (in a child) if missing
    torch_model = SentenceTransformerEmbedder()
    runtimes = {"torch, every thread / 64 (sentence-transformers)": torch_model.encode}
    onnx = {}
    for threads, workers, batch in ONNX_CONFIGS:
        onnx[(threads, workers, batch)] = OnnxEmbedder(directory, threads=threads, workers=workers, batch_size=batch)
        runtimes[f"ONNX Runtime {threads} x {workers} / {batch}"] = onnx[(threads, workers, batch)].encode
    sets = {"corpus": memory_texts(args.texts), "1-12 sentences": long_texts(args.long)}
    for encode in runtimes.values():  # warm-up: first-call allocation is not throughput
        encode(sets["corpus"][:CALL])
    rates: dict[tuple[str, str], list[float]] = {(r, s): [] for r in runtimes for s in sets}
    for _ in range(args.rounds):
        for name, texts in sets.items():
            for label, encode in runtimes.items():
                rates[(label, name)].append(rate(encode, texts))
    print(f"| runtime | {' | '.join(f'{s}, texts/s (median of {args.rounds})' for s in sets)} |")
    print(f"| --- | {' | '.join('---' for _ in sets)} |")
    for label in runtimes:
        print(f"| {label} | {' | '.join(f'{statistics.median(rates[(label, s)]):.0f}' for s in sets)} |")

    qs = queries(args.queries)
    single_onnx = onnx[(1, 2, 32)].encode
    torch_model.encode(qs[:10])
    for q in qs[:10]:
        single_onnx([q])
    print()
    print("| one query, one thread | p50 / p95 ms |")
    print("| --- | --- |")
    for label, encode in (("ONNX Runtime", single_onnx), ("torch", torch_model.encode)):
        p50, p95 = latency(encode, qs)
        print(f"| {label} | {p50:.1f} / {p95:.1f} |")

    if not args.skip_memory:
        print()
        print("| a fresh process | RSS loaded | RSS after a query and 256 texts | torch imported |")
        print("| --- | --- | --- | --- |")
        for runtime in ("onnx", "torch", "import torch"):
            m = memory(runtime, cache)
            print(f"| {runtime} | {m['loaded']:.0f} MB | {m['after']:.0f} MB | {m.get('torch', True)} |")


if __name__ == "__main__":
    main()
