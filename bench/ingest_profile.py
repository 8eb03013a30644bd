"""Where a batched plain ingest spends its time, per batch, on one backend at a time.

Runs bench/ingest_search.py's ingest (the corpus of bench/corpus.py over ten tenants, batches of
256, two writers, through WriteService.store_many) with the write path instrumented, and the
service's encoder alone on the same texts in the same batches before it, then prints:

- the rates: ingest, and the encoder alone, and ingest as a share of it;
- the wall time of each step of a batch (the wait for the encoder's lane, the model call, the
  wait for the transaction, each named statement, the commit), summed over the batches;
- the CPU seconds by whom: the model (the ONNX sub-batches and the tokenizing thread), the event
  loop's thread (the write path's Python and the driver), the service's other threads, the
  database's JVM, and the rest of the machine, against the two cores' capacity;
- how the two writers overlap: the share of the ingest's wall time in which the model runs, a
  transaction is open, both, or neither;
- the reads the service ran beside the writes (the index warm-up after each write, preferences).

    .venv/bin/python bench/ingest_profile.py --n 3000 --backend embedded
    .venv/bin/python bench/ingest_profile.py --n 3000 --backend neo4j --profile   # + cProfile of the loop

Every figure is provisional on a shared machine: compare variants only inside one run.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts
from graph.embedding import encoder as embedder_module
from graph.memories.model import NewMemory
from graph.services import Services
from graph.settings import Settings
from graph.store import gateway

TICK = os.sysconf("SC_CLK_TCK")


def _cpu(stat_path: str) -> float:
    """utime + stime of a process or thread, in seconds."""
    try:
        fields = Path(stat_path).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICK, sum(values[:8]) / TICK


class Threads:
    """CPU seconds of this process's threads, by role."""

    def __init__(self) -> None:
        self.roles: dict[int, str] = {threading.main_thread().native_id or 0: "event loop"}
        self.lock = threading.Lock()

    def mark(self, role: str) -> None:
        with self.lock:
            self.roles.setdefault(threading.get_native_id(), role)

    def snapshot(self) -> dict[int, float]:
        return {int(task.name): _cpu(f"{task}/stat") for task in Path("/proc/self/task").iterdir()}

    def by_role(self, before: dict[int, float], after: dict[int, float]) -> dict[str, float]:
        """CPU seconds used between two snapshots, by role (a thread that ended meanwhile is lost)."""
        out: dict[str, float] = defaultdict(float)
        for tid, seconds in after.items():
            out[self.roles.get(tid, "other threads")] += seconds - before.get(tid, 0.0)
        return out


class Timeline:
    """Intervals (start, end) by kind, and per-statement wall times."""

    def __init__(self) -> None:
        self.spans: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def add(self, kind: str, start: float, end: float) -> None:
        self.spans[kind].append((start, end))

    @contextmanager
    def span(self, kind: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(kind, start, time.perf_counter())

    def total(self, kind: str) -> float:
        return sum(e - s for s, e in self.spans.get(kind, []))


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[tuple[float, float]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _covered(spans: list[tuple[float, float]], t0: float, t1: float) -> float:
    return sum(max(0.0, min(e, t1) - max(s, t0)) for s, e in _union(spans))


def _intersection(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    total, ua, ub = 0.0, _union(a), _union(b)
    for s1, e1 in ua:
        for s2, e2 in ub:
            total += max(0.0, min(e1, e2) - max(s1, s2))
    return total


class Jvm:
    """CPU seconds of the database's JVM, by the statement running (exact only with one writer)."""

    def __init__(self, pid: int) -> None:
        self.stat = f"/proc/{pid}/stat"
        self.by_statement: dict[str, float] = defaultdict(float)

    def cpu(self) -> float:
        return _cpu(self.stat)


def instrument(services: Services, timeline: Timeline, threads: Threads, jvm: Jvm) -> None:
    """Wraps the encoder, the runner and the transaction's statements to record their spans."""
    embedder = services.encoder.embedder
    encode, run_one = embedder.encode, getattr(embedder, "_run", None)

    def timed_encode(texts):  # on the encoder's lane thread
        threads.mark("model: tokenizer and lane thread")
        with timeline.span("model call" if len(texts) > embedder_module.SINGLE_THREAD_MAX else "model call, single"):
            return encode(texts)

    embedder.encode = timed_encode  # type: ignore[method-assign]
    if run_one is not None:
        def timed_run(encodings):  # on the ONNX sub-batch threads
            threads.mark("model: ONNX sub-batches")
            return run_one(encodings)
        embedder._run = timed_run  # type: ignore[attr-defined]

    runner = services.runner
    write_tx, read, read_tx = runner.write_tx, runner.read, runner.read_tx

    async def timed_write_tx(work, kind="write"):
        ends: list[float] = []

        async def timed_work(tx):
            # From the transaction's first statement to the end of the caller's work; the commit follows.
            started = time.perf_counter()
            try:
                return await work(tx)
            finally:
                ends.append(time.perf_counter())
                timeline.add("transaction: statements and the work between them", started, ends[-1])
        started = time.perf_counter()
        try:
            return await write_tx(timed_work, kind)
        finally:
            ended = time.perf_counter()
            timeline.add("transaction (write_tx, whole)", started, ended)
            if ends:
                timeline.add("commit (after the work, until write_tx returns)", ends[-1], ended)

    async def timed_read(name, **params):
        with timeline.span(f"read outside writes: {name}"):
            return await read(name, **params)

    async def timed_read_tx(work):
        with timeline.span("read outside writes: read_tx"):
            return await read_tx(work)

    runner.write_tx = timed_write_tx  # type: ignore[method-assign]
    runner.read = timed_read  # type: ignore[method-assign]
    runner.read_tx = timed_read_tx  # type: ignore[method-assign]

    shaped = gateway.Tx._shaped

    async def timed_shaped(self, name, expected, params):
        cpu = jvm.cpu()
        try:
            with timeline.span(f"statement: {name}"):
                return await shaped(self, name, expected, params)
        finally:
            jvm.by_statement[name] += jvm.cpu() - cpu

    gateway.Tx._shaped = timed_shaped  # type: ignore[method-assign]

    writes = services.writes
    store_many, prepare = writes.store_many, writes.prepare

    async def timed_store_many(items, *args, **kwargs):
        with timeline.span("store_many (whole)"):
            return await store_many(items, *args, **kwargs)

    async def timed_prepare(items, *args, **kwargs):
        with timeline.span("prepare (screen, check, rows; the model call starts)"):
            return await prepare(items, *args, **kwargs)

    writes.store_many = timed_store_many  # type: ignore[method-assign]
    writes.prepare = timed_prepare  # type: ignore[method-assign]

    lane = services.encoder.encode

    async def timed_lane(texts):
        with timeline.span("encoder (lane wait + model call)" if len(texts) > embedder_module.SINGLE_THREAD_MAX
                           else "encoder, single (lane wait + model call)"):
            return await lane(texts)

    services.encoder.encode = timed_lane  # type: ignore[method-assign]


class Precomputed:
    """The corpus's vectors, computed once by the model and looked up: the database's work alone."""

    runtime = "onnx"

    def __init__(self, model, texts: list[str], cache: Path) -> None:
        self.name, self.dimensions = model.name, model.dimensions
        if cache.exists():
            vectors = np.load(cache)
        else:
            vectors = np.concatenate([model.encode(texts[i:i + 256]) for i in range(0, len(texts), 256)])
            np.save(cache, vectors)
        self.rows = dict(zip(texts, vectors, strict=True))
        self.model = model

    def encode(self, texts):
        if len(texts) <= embedder_module.SINGLE_THREAD_MAX:
            return self.model.encode(texts)
        return np.stack([self.rows[t] for t in texts])


async def encoder_alone(embedder, texts: list[str], batch: int, threads: Threads) -> tuple[float, float]:
    """The model alone on `texts` in the ingest's batches, one caller: (texts/s, CPU s of this process)."""
    before = sum(threads.snapshot().values())
    t0 = time.perf_counter()
    for i in range(0, len(texts), batch):
        embedder.encode(texts[i:i + batch])
    seconds = time.perf_counter() - t0
    return len(texts) / seconds, sum(threads.snapshot().values()) - before


async def run(args: argparse.Namespace) -> None:
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="credence-ingest-profile-"))
    model = embedder_module.load_embedder(None, data_dir / "models")
    texts = memory_texts(args.n)
    embedder = Precomputed(model, texts, data_dir / f"vectors-{args.n}.npy") if args.db_only else model
    settings = Settings(data_dir=data_dir / args.backend, backend=args.backend, neo4j_uri=None,
                        embedded_heap=args.heap, local_neo4j_heap=args.heap)
    services = await Services.start(settings, embedder)
    jvm = Jvm(services.backend.child.process.pid)
    agents = [f"bench-{i}" for i in range(args.agents)]
    threads = Threads()
    timeline = Timeline()
    retrieval = services.retrieval
    if args.warm != "after-each":
        services.writes.on_vectors_written = lambda agents: None
    try:
        alone_rate, alone_cpu = (0.0, 0.0) if args.db_only else await encoder_alone(model, texts, args.batch, threads)
        instrument(services, timeline, threads, jvm)
        offsets = iter(range(0, len(texts), args.batch))

        async def writer() -> None:
            for offset in offsets:
                chunk = texts[offset:offset + args.batch]
                await services.writes.store_many(
                    [NewMemory(agent=agents[(offset + j) % len(agents)], text=t) for j, t in enumerate(chunk)])
                if args.warm == "inline":  # the warm-up in the writer's turn, so its JVM time is its own
                    cpu = jvm.cpu()
                    with timeline.span("inline warm-up (retrieval/vector, k=1)"):
                        await retrieval.warm_up()
                    jvm.by_statement["inline warm-up"] += jvm.cpu() - cpu

        profiler = cProfile.Profile() if args.profile else None
        cpu0, jvm0, (busy0, _) = threads.snapshot(), jvm.cpu(), _machine_busy()
        started = time.perf_counter()
        if profiler:
            profiler.enable()
        await asyncio.gather(*(writer() for _ in range(args.writers)))
        if profiler:
            profiler.disable()
        ended = time.perf_counter()
        cpu1, jvm1, (busy1, _) = threads.snapshot(), jvm.cpu(), _machine_busy()
        if args.warm == "none":  # the build the load left for later, timed apart
            cpu = jvm.cpu()
            with timeline.span("one warm-up after the load"):
                await retrieval.warm_up()
            print(f"one warm-up after the load: {timeline.total('one warm-up after the load'):.2f} s, "
                  f"JVM {jvm.cpu() - cpu:.2f} s CPU")
        # Let the background warm-up and probe finish, then count them.
        await asyncio.sleep(0.1)
        if retrieval._warming is not None:
            await retrieval._warming
        jvm2 = jvm.cpu()
    finally:
        await services.close()

    wall = ended - started
    batches = (len(texts) + args.batch - 1) // args.batch
    rate = len(texts) / wall
    print(f"{args.backend}: {len(texts)} memories in {batches} batches of {args.batch}, {args.writers} writers, "
          f"{args.agents} tenants, {os.cpu_count()} cores, warm-up {args.warm}"
          + (", vectors precomputed (the database alone)" if args.db_only else ""))
    if args.db_only:
        print(f"ingest {rate:.0f} memories/s")
    else:
        print(f"ingest {rate:.0f} memories/s; encoder alone {alone_rate:.0f} texts/s "
              f"({alone_cpu / len(texts) * 1000:.2f} ms CPU per text); ingest at {rate / alone_rate:.0%} of it")
    print(f"\nwall time, summed over the batches (the ingest took {wall:.2f} s; "
          f"per batch {wall / batches * 1000:.0f} ms)")
    order = sorted((k for k in timeline.spans if not k.startswith("_")), key=lambda k: -timeline.total(k))
    for kind in order:
        spans = timeline.spans[kind]
        total = timeline.total(kind)
        print(f"  {kind}: {total:.2f} s in {len(spans)} ({total / len(spans) * 1000:.1f} ms each; "
              f"{total / batches * 1000:.0f} ms per batch)")
        if args.trace and len(spans) <= 4 * batches:
            print("    " + " ".join(f"{(e - s) * 1000:.0f}" for s, e in spans))
    lane_wait = timeline.total("encoder (lane wait + model call)") - timeline.total("model call")
    print(f"  => the wait for the batch lane: {lane_wait:.2f} s")

    print("\nCPU seconds during the ingest (capacity: "
          f"{wall * (os.cpu_count() or 1):.1f} s on {os.cpu_count()} cores)")
    own = 0.0
    for role, used in sorted(threads.by_role(cpu0, cpu1).items()):
        own += used
        print(f"  service, {role}: {used:.2f} s ({used / len(texts) * 1000:.2f} ms per memory)")
    print(f"  database JVM: {jvm1 - jvm0:.2f} s ({(jvm1 - jvm0) / len(texts) * 1000:.2f} ms per memory); "
          f"{jvm2 - jvm1:.2f} s more after the load (background warm-up, probe)")
    for name, seconds in sorted(jvm.by_statement.items(), key=lambda kv: -kv[1]):
        print(f"    while {name} ran: {seconds:.2f} s ({seconds / len(texts) * 1000:.2f} ms per memory)")
    others = (busy1 - busy0) - own - (jvm1 - jvm0)
    print(f"  the rest of the machine: {others:.2f} s; idle: {wall * (os.cpu_count() or 1) - (busy1 - busy0):.2f} s")

    model_spans = timeline.spans["model call"]
    tx_spans = timeline.spans["transaction (write_tx, whole)"]
    both = _intersection(model_spans, tx_spans)
    model_busy, tx_busy = _covered(model_spans, started, ended), _covered(tx_spans, started, ended)
    print(f"\noverlap over the ingest's {wall:.2f} s: model running {model_busy / wall:.0%}, a transaction open "
          f"{tx_busy / wall:.0%}, both {both / wall:.0%}, neither {(wall - model_busy - tx_busy + both) / wall:.0%}")

    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(args.profile_top)
        print("\ncProfile of the event loop's thread (tottime):")
        print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--backend", default="embedded", choices=["embedded", "neo4j"])
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--data-dir")
    parser.add_argument("--db-only", action="store_true",
                        help="look the vectors up instead of running the model: the database's and the write "
                             "path's work alone")
    parser.add_argument("--warm", default="after-each", choices=["after-each", "inline", "none"],
                        help="the index warm-up: in the background after each write (the service's), in the "
                             "writer's turn, or once after the load")
    parser.add_argument("--trace", action="store_true", help="print each span of the per-batch steps")
    parser.add_argument("--profile", action="store_true", help="cProfile the event loop's thread during the ingest")
    parser.add_argument("--profile-top", type=int, default=40)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
