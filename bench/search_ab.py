"""A whole search request, stage by stage, with changes A/B'd on the same graph in one run.

Loads N memories over ten tenants into each backend named (or reuses a --data-dir that holds them),
warms up, then runs the default search (hybrid + rerank, limit 10) for corpus queries, query by
query, backend by backend and arm by arm (alternating the arms' order), so drift hits every cell
alike. Each search is timed whole and by stage with bench/search_stages.py's timers (the query
embedding, each statement's wait for its first row and the fetch of its rows, the unit of work
around it, the event loop's CPU); `--http` adds the same search through the service's FastAPI app
in process (ASGI: routing, middleware, pydantic, JSON; no socket, no uvicorn).

An arm is a function that switches the process to one variant; ARMS below names them. "current"
is this tree; the others put back what a change replaced, so the change is measured against the
code it replaced, and the run says whether both arms returned the same memories with the same scores.

    .venv/bin/python bench/search_ab.py --data-dir /tmp/ab --backends embedded,neo4j --arms current
    .venv/bin/python bench/search_ab.py --data-dir /tmp/ab --arms before,current --http

Timings on a shared machine are noisy: compare arms within one run."""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import queries
from bench.search_stages import current, instrument, load_once, pct
from graph.embedding import encoder as embedder
from graph.preferences import service as preferences_service
from graph.retrieval import ann_widening, candidates
from graph.retrieval.model import SearchQuery, check_query
from graph.retrieval.service import RetrievalService
from graph.services import Services
from graph.settings import Settings

_saved: dict[str, object] = {}


async def _search_before(self, query, embedding=None):
    """RetrievalService.search before the query's embedding overlapped the preferences' read."""
    check_query(query)
    query = await self.honour_preferences(query)
    return await self._search(query, self.embed(query.text) if embedding is None else embedding)


async def _preferences_before(self, agent):
    """PreferenceService.get before its read was one auto-commit statement (a managed transaction)."""
    hit = self._cache.get(agent)
    if hit is not None and hit[0] > time.monotonic():
        return hit[1]
    row = await self.runner.read_tx(lambda tx: tx.optional("preferences/get", agent=agent))
    prefs = preferences_service._from_map(agent, row["preferences"] if row else None)
    self._remember(prefs)
    return prefs


def _next_k_before(k: int, total: int, vector_max_k: int, kept: int = 0, pool: int = 0) -> int:
    """ann_widening.next_k before a short page widened by the share it showed: four times, always."""
    return min(total, vector_max_k, k * 4)


_NOW = {"search": RetrievalService.search, "preferences": preferences_service.PreferenceService.get,
        "next_k": candidates.next_k, "margin": ann_widening.SHARE_MARGIN}


def _before(services: Services) -> None:
    """This tree with the changes of this branch put back: the query embedded after the agent's
    preferences were read, in a managed transaction; the first index page 1.5 times what the
    tenant's share asks for, and a short one widened fourfold."""
    _current(services)
    RetrievalService.search = _search_before
    preferences_service.PreferenceService.get = _preferences_before
    candidates.next_k = _next_k_before
    ann_widening.SHARE_MARGIN = 1.5


def _page_before(services: Services) -> None:
    """This tree with only the first index page and its widening as they were (1.5x, fourfold)."""
    _current(services)
    candidates.next_k = _next_k_before
    ann_widening.SHARE_MARGIN = 1.5


def _current(services: Services) -> None:
    """This tree as it is."""
    RetrievalService.search = _NOW["search"]
    preferences_service.PreferenceService.get = _NOW["preferences"]
    candidates.next_k = _NOW["next_k"]
    ann_widening.SHARE_MARGIN = _NOW["margin"]
    if "embedder" in _saved:
        services.encoder.embedder = _saved["embedder"]
    search = services.retrieval.candidates
    search.vector_in_tenant_max = _saved.setdefault(f"own list {id(search)}", search.vector_in_tenant_max)


def _global_page(services: Services) -> None:
    """This tree with every large tenant's vector candidates read from the global index's page, cut
    to the tenant (as on Neo4j), never from the index searched over the tenant's own memories."""
    _current(services)
    services.retrieval.candidates.vector_in_tenant_max = 0


def _query_on_two_threads(services: Services) -> None:
    """Measured, not kept: the query embedded by an ONNX session of two intra-op threads (a second
    session: the shipped one runs a query on one)."""
    _current(services)
    if "two_threads" not in _saved:
        from graph.embedding.onnx_encoder import OnnxEmbedder

        _saved["embedder"] = services.encoder.embedder
        _saved["two_threads"] = OnnxEmbedder(services.encoder.embedder.directory, threads=2)
    services.encoder.embedder = _saved["two_threads"]


# Each arm switches one backend's services to its variant (and back, for "current").
ARMS: dict[str, Callable[[Services], None]] = {"current": _current, "before": _before, "page-before": _page_before,
                                               "onnx2": _query_on_two_threads, "global-page": _global_page}


async def start(kind: str, data_dir: Path, model, args: argparse.Namespace) -> Services:
    settings = Settings(data_dir=data_dir / kind, backend=kind, neo4j_uri=None, embedded_heap=args.heap,
                        local_neo4j_heap=args.heap)
    services = await Services.start(settings, model)
    await load_once(services, data_dir / f"{kind}.loaded", args.n, [f"bench-{i}" for i in range(args.agents)])
    services.access.enabled = False  # off the request path anyway; keeps the graph unchanged between runs
    if args.preferences_cache is not None:
        services.preferences.cache_seconds = args.preferences_cache
    return services


def http_client(services: Services):
    import httpx

    from api.app import create_app

    app = create_app(services=services)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench")


async def main(args: argparse.Namespace) -> None:
    data_dir = Path(args.data_dir)
    model = embedder.load_embedder(None, data_dir / "models")
    backends: dict[str, Services] = {}
    clients = {}
    try:
        for kind in args.backends:
            backends[kind] = await start(kind, data_dir, model, args)
            if args.http:
                clients[kind] = http_client(backends[kind])
        agents = [f"bench-{i}" for i in range(args.agents)]
        qs = queries(args.searches + args.warmup)
        rng = random.Random(3)
        for services in backends.values():
            for arm in args.arms:
                ARMS[arm](services)
                for q in qs[:args.warmup]:
                    await services.retrieval.search(SearchQuery(agent=rng.choice(agents), text=q, limit=10))
        instrument()
        per_stage: defaultdict[str, list[float]] = defaultdict(list)
        answers: dict[tuple[str, str], list] = defaultdict(list)
        for i, q in enumerate(qs[args.warmup:]):
            agent = rng.choice(agents)
            for kind, services in backends.items():
                for arm in (args.arms if i % 2 == 0 else args.arms[::-1]):
                    ARMS[arm](services)
                    stages: dict[str, float] = {}
                    token = current.set(stages)
                    t0, cpu0 = time.perf_counter(), time.thread_time()
                    result = await services.retrieval.search(SearchQuery(agent=agent, text=q, limit=10))
                    total = (time.perf_counter() - t0) * 1000
                    stages["event loop CPU"] = (time.thread_time() - cpu0) * 1000
                    current.reset(token)
                    answers[(kind, arm)].append([(h.memory.id, round(h.score, 9), h.similarity) for h in result.hits])
                    per_stage[f"{kind} {arm} total"].append(total)
                    for name, ms in stages.items():
                        per_stage[f"{kind} {arm} {name}"].append(ms)
                    if args.http:
                        t0 = time.perf_counter()
                        response = await clients[kind].post("/v1/search", json={"agent": agent, "query": q,
                                                                                 "limit": 10})
                        per_stage[f"{kind} {arm} HTTP total"].append((time.perf_counter() - t0) * 1000)
                        response.raise_for_status()
        print(f"{args.searches} searches per cell, hybrid + rerank, limit 10, {args.n:,} memories over "
              f"{args.agents} tenants; arms {', '.join(args.arms)}, interleaved")
        print(f"{'stage':90} {'calls':>5} {'p50':>7} {'p95':>7} {'p99':>7} {'mean':>7}")
        for name in sorted(per_stage):
            v = per_stage[name]
            print(f"{name:90} {len(v):5} {statistics.median(v):7.2f} {pct(v, 95):7.2f} {pct(v, 99):7.2f} "
                  f"{statistics.fmean(v):7.2f}")
        for kind in backends:
            first = answers[(kind, args.arms[0])]
            for arm in args.arms[1:]:
                same = sum(a == b for a, b in zip(first, answers[(kind, arm)], strict=True))
                print(f"{kind}: same hits, scores and order in {args.arms[0]} and {arm}: {same} of {len(first)}")
    finally:
        for client in clients.values():
            await client.aclose()
        for services in backends.values():
            await services.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True, help="kept between runs: the corpus loads once per backend")
    parser.add_argument("--backends", default="embedded", type=lambda s: s.split(","))
    parser.add_argument("--arms", default="current", type=lambda s: s.split(","), help=f"of {', '.join(ARMS)}")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--preferences-cache", type=float, metavar="SECONDS",
                        help="how long the agents' preferences are held (default the service's; 0: read per search)")
    parser.add_argument("--http", action="store_true", help="also time the search through the FastAPI app")
    asyncio.run(main(parser.parse_args()))
