"""Where a search's time goes, stage by stage, on one backend (issue 12 item 6).

Loads N memories (or reuses a --data-dir that holds them), warms up, then runs the default search
(hybrid + rerank, limit 10) and times each stage inside it: the query embedding, each Cypher
query (split into the wait for the database's first answer and the fetching and decoding of its
rows), and the rest (Python: fusion, rerank, building the hits). Timers wrap the service's own
calls; they change nothing the search does.

    .venv/bin/python bench/search_stages.py --data-dir /tmp/stages          # 10k, embedded
    .venv/bin/python bench/search_stages.py --data-dir /tmp/stages --profile # plus a cProfile top list
    .venv/bin/python bench/search_stages.py --data-dir /tmp/stages --before fe8ec54

After the table, "the tail" compares the slowest searches (from p95 up, and from p99 up) with the
middle band (p40 to p60), stage by stage: which stages the slow searches spend their extra time in,
and how often a Python garbage collection ran inside them.

With --before REF, searches alternate between two arms in one process: "before" runs the Cypher
of git REF and every read as a managed transaction (BEGIN, RUN, COMMIT), as before issue 12's
item 6; "after" runs this tree. It reports both arms' stages and whether they returned the same
memories with the same scores.

Timings on a shared machine are noisy: compare stages within one run, not runs across hosts."""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextvars import ContextVar
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from graph.embedding import encoder as embedder
from graph.embedding.encoder import AsyncEncoder
from graph.memories.model import NewMemory
from graph.retrieval.model import SearchQuery
from graph.services import Services
from graph.settings import Settings
from graph.store import gateway
from graph.store.registry import QueryRegistry

# The stages of the search in progress: name -> milliseconds (summed when a query runs twice).
current: ContextVar[dict[str, float] | None] = ContextVar("current", default=None)
unit: ContextVar[list[str] | None] = ContextVar("unit", default=None)  # the statements of this unit of work


def note(stage: str, ms: float) -> None:
    stages = current.get()
    if stages is not None:
        stages[stage] = stages.get(stage, 0.0) + ms


def instrument() -> None:
    """Timers around the query embedding and every Cypher statement (server wait vs row fetch)."""
    encode = AsyncEncoder.encode

    async def timed_encode(self, texts):
        t0 = time.perf_counter()
        try:
            return await encode(self, texts)
        finally:
            note("embed", (time.perf_counter() - t0) * 1000)

    async def timed_shaped(self, name, expected, params):
        query = self._registry[name]
        self.statements.append(name)
        names = unit.get()
        if names is not None:
            names.append(name)
        t0 = time.perf_counter()
        result = await self._tx.run(query.text, query.bind(params))
        t1 = time.perf_counter()
        rows = [dict(record.items()) async for record in result]
        t2 = time.perf_counter()
        summary = await result.consume()
        if summary.result_available_after is not None:  # the server's own time to a first row (whole ms)
            note(f"{name} (server: first row)", summary.result_available_after)
        note(f"{name} (run)", (t1 - t0) * 1000)
        note(f"{name} (rows)", (t2 - t1) * 1000)
        note(name, (t2 - t0) * 1000)
        note(f"{name} (statements run: a second one widened the page)", 1)
        gateway._check_shape(query.name, query.shape, rows)
        return rows

    execute = gateway.GraphRunner._execute

    async def timed_execute(self, mode, work, *rest):
        names: list[str] = []
        unit.set(names)
        t0 = time.perf_counter()
        try:
            return await execute(self, mode, work, *rest)
        finally:
            note(f"{'+'.join(dict.fromkeys(names))} (unit of work: session, begin, commit too)",
                 (time.perf_counter() - t0) * 1000)

    AsyncEncoder.encode = timed_encode
    gateway.Tx._shaped = timed_shaped
    gateway.GraphRunner._execute = timed_execute


def before_arm(ref: str, runner: gateway.GraphRunner):
    """A switch between this tree and REF's Cypher with managed-transaction reads."""
    root = Path(tempfile.mkdtemp(prefix="credence-cypher-"))
    archive = subprocess.run(["git", "archive", ref, "cypher"], check=True, capture_output=True,
                             cwd=Path(__file__).resolve().parents[1]).stdout
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    registries = {"before": QueryRegistry(root / "cypher"), "after": runner.registry}
    bounded = gateway.GraphRunner._bounded
    arm = {"name": "after"}

    async def switched(self, mode, work, single=False):
        return await bounded(self, mode, work, single and arm["name"] == "after")

    gateway.GraphRunner._bounded = switched

    def use(name: str) -> None:
        arm["name"] = name
        runner.registry = registries[name]
    return use


async def load_once(services: Services, marker: Path, n: int, agents: list[str]) -> None:
    """The benchmark corpus, n memories dealt over `agents` in batches of 256, unless `marker` says
    this data directory holds them already."""
    if marker.exists():
        return
    texts = memory_texts(n)
    for offset in range(0, len(texts), 256):
        chunk = texts[offset:offset + 256]
        await services.writes.store_many(
            [NewMemory(agent=agents[(offset + j) % len(agents)], text=t) for j, t in enumerate(chunk)])
    marker.write_text(str(n))


def gc_timer() -> list[float]:
    """Milliseconds of Python garbage collection since the list was last cleared (gc.callbacks)."""
    paused: list[float] = []
    started: list[float] = []

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            paused.append((time.perf_counter() - started[0]) * 1000)
    gc.callbacks.append(callback)
    return paused


def tail_report(searches: list[dict[str, float]]) -> None:
    """The slowest searches against the middle band, stage by stage (mean ms per search)."""
    ordered = sorted(searches, key=lambda s: s["total"])
    n = len(ordered)
    bands = {"p40-p60": ordered[int(n * 0.4):max(int(n * 0.6), int(n * 0.4) + 1)],
             "p95 up": ordered[int(n * 0.95):], "p99 up": ordered[int(n * 0.99):]}
    names = sorted({k for s in searches for k in s if "(" not in k or k.endswith("(server: first row)")})
    print(f"\nthe tail: mean ms per search in each band ({', '.join(f'{b} {len(v)}' for b, v in bands.items())})")
    print(f"{'stage':70} " + " ".join(f"{b:>9}" for b in bands))
    for name in names:
        print(f"{name:70} " + " ".join(f"{statistics.fmean(s.get(name, 0.0) for s in v):9.2f}"
                                       for v in bands.values()))
    print(f"{'searches with a Python garbage collection inside (share)':70} "
          + " ".join(f"{sum(s.get('python gc', 0) > 0 for s in v) / len(v):9.2f}" for v in bands.values()))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def main(args: argparse.Namespace) -> None:
    data_dir = Path(args.data_dir)
    model = embedder.load_embedder(None, data_dir / "models")
    settings = Settings(data_dir=data_dir / args.backend, backend=args.backend, neo4j_uri=None,
                        embedded_heap=args.heap, local_neo4j_heap=args.heap)
    services = await Services.start(settings, model)
    agents = [f"bench-{i}" for i in range(args.agents)]
    try:
        await load_once(services, data_dir / f"{args.backend}.loaded", args.n, agents)
        services.access.enabled = False  # off the request path anyway; keeps the graph unchanged between runs
        qs = queries(args.searches + args.warmup)
        rng = random.Random(3)
        for q in qs[:args.warmup]:
            await services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
        instrument()
        use = before_arm(args.before, services.runner) if args.before else None
        arms = ["before", "after"] if use else [""]
        answers: dict[str, list] = {a: [] for a in arms}
        per_stage: defaultdict[str, list[float]] = defaultdict(list)
        per_search: defaultdict[str, list[dict[str, float]]] = defaultdict(list)
        paused = gc_timer()
        profiler = cProfile.Profile() if args.profile else None
        for i, q in enumerate(qs[args.warmup:]):
            agent = rng.choice(agents)
            # Both arms run every query, in alternating order, so drift hits them alike.
            for arm in (arms if i % 2 == 0 else arms[::-1]):
                if use:
                    use(arm)
                stages: dict[str, float] = {}
                token = current.set(stages)
                if profiler:
                    profiler.enable()
                paused.clear()
                t0, cpu0 = time.perf_counter(), time.thread_time()
                result = await services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10))
                total = (time.perf_counter() - t0) * 1000
                # CPU of the event loop's thread: the driver, the ranking, the hits (not the model's thread).
                stages["event loop CPU"] = (time.thread_time() - cpu0) * 1000
                stages["python gc"] = sum(paused)
                if profiler:
                    profiler.disable()
                current.reset(token)
                # Not the composite: its recency moves with the clock between the two arms.
                answers[arm].append([(h.memory.id, round(h.score, 9), h.similarity) for h in result.hits])
                per_stage[f"{arm} total".strip()].append(total)
                for name, ms in stages.items():
                    per_stage[f"{arm} {name}".strip()].append(ms)
                per_search[arm].append({**stages, "total": total})
        print(f"{len(qs) - args.warmup} searches per arm, hybrid + rerank, limit 10, {args.backend}")
        print(f"{'stage':70} {'calls':>5} {'p50':>7} {'p95':>7} {'mean':>7}")
        for name in sorted(per_stage):
            v = per_stage[name]
            print(f"{name:70} {len(v):5} {statistics.median(v):7.2f} {pct(v, 95):7.2f} {statistics.fmean(v):7.2f}")
        if use:
            same = sum(a == b for a, b in zip(answers["before"], answers["after"], strict=True))
            print(f"same hits, scores and order in both arms: {same} of {len(answers['after'])} searches")
        for arm in arms:
            tail_report(per_search[arm])
        if profiler:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    finally:
        await services.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", required=True, help="kept between runs: the corpus loads once")
    parser.add_argument("--backend", default="embedded")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--before", metavar="REF", help="A/B against REF's Cypher with managed-transaction reads")
    asyncio.run(main(parser.parse_args()))
