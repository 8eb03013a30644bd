"""Retrieval quality on real conversations: recall@10 and MRR of labelled evidence turns, per
search mode, on public conversational-memory datasets, through the real service (embedded backend;
`--backend neo4j` for the local Neo4j 5.26).

    make bench-conversations                       # or:
    .venv/bin/python bench/conversation_quality.py [--realmem-personas 4] [--record]
    .venv/bin/python bench/conversation_quality.py --fit     # also refit the fusion on the tuning halves
    .venv/bin/python bench/conversation_quality.py --datasets madial   # the third dataset, on its own
    .venv/bin/python bench/conversation_quality.py --model /path/to/model --pools bench/out/pools-model.pkl

The data is not in git. Fetch it first (bench/data/ is git-ignored; CREDENCE_BENCH_DATA points
elsewhere), and a dataset whose files are absent is skipped, saying so:

    .venv/bin/python -m bench.datasets.fetch_realtalk
    .venv/bin/python -m bench.datasets.fetch_realmem
    .venv/bin/python -m bench.datasets.fetch_madial

MADial-Bench (`madial`) is not in the default `--datasets`: the shipped fusion weights and the
neighbour weight were fitted on the tuning halves of the other two, and adding it to a run adds
its tuning half to the ablation's refits. Its "conversations" are users' memory archives (dated
events) and its questions are dialogues up to the turn that should recall them.

How it measures
---------------
Every turn of a conversation is stored as one memory (`WriteService.store_many`, with the
turn's time as `event_at`), one agent per conversation or persona. Each question is searched in
that agent with limit 10 through `RetrievalService.search` in three modes with the default PRD
rerank, as a user gets them: `keyword`, `vector` and `hybrid`. recall@10 = |evidence ∩ top 10| /
|evidence|; MRR = 1 / rank of the first evidence turn in the top 10 (0 if none). A question that
is itself a stored turn (RealMem) never counts itself, and sees only the turns before its session
(`event_before`). Plain reciprocal rank fusion (k = 60) of the same two candidate pools (the
service's own vector and keyword candidates, 200 each) is the reference.

Each dataset is split into a tuning and a test half by conversation (seeded; never by question,
since a conversation's questions share its turns). Only test-half figures are results. The fusion
weights shipped in graph/retrieval/fusion.py were fitted on the tuning halves of both datasets
together (`--fit` refits and prints them), and the ablation refits without each signal, again on
the tuning halves only, and ranks the test halves' candidate pools offline.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import pickle
import platform
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import fusion_fit
from bench.datasets import madial, realmem, realtalk
from bench.datasets.common import Dataset, split
from bench.record import record
from graph.memories.model import NewMemory
from graph.retrieval import Visibility, fusion, keywords
from graph.retrieval.model import SearchQuery
from graph.services import Services
from graph.settings import Settings

MODES = ("keyword", "vector", "hybrid")
DEFAULT_DATASETS = "realtalk,realmem"
POOL = 200
BATCH = 256
MAX_CHARS = 8_000  # longer turns are cut (RealMem has a few of 20-80k characters); the model reads 256 tokens
OUT = Path(__file__).resolve().parent / "out"


def recall_at(ranked: list[str], relevant: set[str], k: int = 10) -> float:
    return len(set(ranked[:k]) & relevant) / len(relevant)


def reciprocal_rank(ranked: list[str], relevant: set[str], k: int = 10) -> float:
    return next((1 / i for i, x in enumerate(ranked[:k], 1) if x in relevant), 0.0)


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


async def ingest(services: Services, ds: Dataset, agent_of) -> dict[str, str]:
    ids: dict[str, str] = {}
    todo = [(conv, t) for conv, turns in ds.conversations.items() for t in turns]
    for start in range(0, len(todo), BATCH):
        chunk = todo[start:start + BATCH]
        if start and start % (BATCH * 8) == 0:
            print(f"{ds.name}: {start:,} of {len(todo):,} turns stored", file=sys.stderr)
        results = await services.writes.store_many(
            # A turn may quote what looks like a password: stored with it redacted, not refused.
            [NewMemory(agent=agent_of(conv), text=t.text[:MAX_CHARS], event_at=t.event_at, thread=t.thread,
                       secrets="redact") for conv, t in chunk])
        for (_, t), r in zip(chunk, results, strict=True):
            ids[t.key] = r.memory.id  # a repeated text ("ok") is deduplicated into one memory
    return ids


# Hybrid search again with a part turned off, when asked (--ablate): the rows of the ablation.
WITHOUT_NEIGHBOURS = "hybrid without neighbour turns"


async def again_past_regex_budget(call, *args):
    """A keyword scan of a small tenant shares ArcadeDB's one-second budget for regular expressions
    (docs/retrieval.md, Candidates); on a loaded machine a search can run past it. Tried again, up
    to three times: the ranking does not depend on it."""
    for attempt in range(3):
        try:
            return await call(*args)
        except Exception as exc:  # the driver's ClientError, as the gateway passes it on
            if "regexTimeout" not in str(exc) or attempt == 2:
                raise
            print(f"regular expression budget exceeded, searching again: {exc!s:.120}", file=sys.stderr)


async def evaluate(services: Services, ds: Dataset, ids: dict[str, str], agent_of, halves,
                   ablate: bool = False) -> list[dict]:
    """Per question: the three modes' top 10 through the service, and both candidate pools."""
    retrieval = services.retrieval
    embeddings = await services.encoder.encode([q.text for q in ds.questions])
    rows = []
    for n, (q, emb) in enumerate(zip(ds.questions, embeddings, strict=True)):
        if n and n % 100 == 0:
            print(f"{ds.name}: {n} of {len(ds.questions)} questions", file=sys.stderr)
        emb = emb.tolist()
        agent = agent_of(q.conversation)
        own = ids.get(q.own_turn) if q.own_turn else None
        row = {"dataset": ds.name, "half": halves[q.conversation], "kind": q.kind, "conversation": q.conversation,
               "relevant": {ids[k] for k in q.evidence}, "own": own, "modes": {}}
        for mode in MODES:
            query = SearchQuery(agent=agent, text=q.text, limit=11 if own else 10, mode=mode, event_before=q.before,
                                track_access=False)
            result = await again_past_regex_budget(retrieval.search, query, emb)
            row["modes"][mode] = [h.memory.id for h in result.hits if h.memory.id != own][:10]
        if ablate:
            lift, retrieval.neighbour_lift = retrieval.neighbour_lift, 0.0
            try:
                plain = SearchQuery(agent=agent, text=q.text, limit=11 if own else 10, event_before=q.before,
                                    track_access=False)
                result = await again_past_regex_budget(retrieval.search, plain, emb)
            finally:
                retrieval.neighbour_lift = lift
            row["modes"][WITHOUT_NEIGHBOURS] = [h.memory.id for h in result.hits if h.memory.id != own][:10]
        filters = Visibility.of(SearchQuery(agent=agent, text=q.text, event_before=q.before), explain=False)
        terms = keywords.stemmed(keywords.terms(q.text))  # as the service searches: stems
        vector = await again_past_regex_budget(retrieval.candidates.vector, emb, filters, POOL)
        keyword = (await again_past_regex_budget(retrieval.candidates.keyword, terms, filters, POOL)).found \
            if terms else {}
        row["pool"] = fusion_fit.pool(vector.found, keyword, list(terms.stems), own, POOL)
        rows.append(row)
    return rows


def load_datasets(args) -> tuple[list[Dataset], list[str]]:
    loaded, skipped = [], []
    for name in args.datasets.split(","):
        ds = (realtalk.load(chats=args.realtalk_chats) if name == "realtalk"
              else realmem.load(personas=args.realmem_personas) if name == "realmem"
              else madial.load(user_lines_only=args.madial_user_lines) if name == "madial" else None)
        if ds is None:
            skipped.append(f"{name}: files absent (run .venv/bin/python -m bench.datasets.fetch_{name}); skipped")
        else:
            loaded.append(ds)
    return loaded, skipped


async def collect(args, datasets: list[Dataset]) -> tuple[list[dict], dict[str, str], dict]:
    own_dir = args.data_dir is None
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="credence-conversations-"))
    services = await Services.start(Settings(data_dir=data_dir, backend=args.backend, neo4j_uri=None,
                                             embedded_heap=args.heap, local_neo4j_heap=args.heap,
                                             embedding_model=args.model))
    rows, timing, neighbours = [], {}, {}
    try:
        for ds in datasets:
            tune, test = split(list(ds.conversations), args.seed)
            halves = dict.fromkeys(tune, "tuning") | dict.fromkeys(test, "test")
            agent_of = (lambda name: lambda conv: f"bench-{name}-{conv}")(ds.name.lower())
            t0 = time.perf_counter()
            saved = data_dir / f"{ds.name}.ids.json"
            if saved.exists():  # --data-dir of an earlier run: its graph already holds these turns
                ids = json.loads(saved.read_text())
            else:
                ids = await ingest(services, ds, agent_of)
                saved.write_text(json.dumps(ids))
            t1 = time.perf_counter()
            if args.ingest_only:
                continue
            rows += await evaluate(services, ds, ids, agent_of, halves, args.ablate)
            neighbours[ds.name] = fusion_fit.neighbours(ds, ids)
            neighbours[ds.name + ":event_at"] = {ids[t.key]: t.event_at for ts in ds.conversations.values() for t in ts}
            t2 = time.perf_counter()
            stored = "in an earlier run" if t1 - t0 < 1 else f"in {t1 - t0:.0f} s"
            timing[ds.name] = (f"{sum(len(t) for t in ds.conversations.values()):,} turns stored {stored}, "
                               f"{len(ds.questions)} questions x ({len(MODES)} searches + 2 pools) in {t2 - t1:.0f} s")
            print(f"{ds.name}: {timing[ds.name]}", file=sys.stderr)
    finally:
        await services.close()
        if own_dir:
            shutil.rmtree(data_dir, ignore_errors=True)
    return rows, timing, neighbours


def tables(rows: list[dict], datasets: list[Dataset], skipped: list[str], timing: dict[str, str],
           model: fusion_fit.Model, args, neighbours: dict) -> str:
    lines = []
    for ds in datasets:
        _, test = split(list(ds.conversations), args.seed)
        mine = [r for r in rows if r["dataset"] == ds.name and r["half"] == "test"]
        turns = sum(len(ds.conversations[c]) for c in test)
        lines.append(f"#### {ds.name} ({ds.source}; licence: {ds.licence})")
        lines.append("")
        lines.append(f"Test half: {len(test)} of {len(ds.conversations)} conversations ({', '.join(test)}), "
                     f"{turns:,} turns, {len(mine)} questions; seed {args.seed}. "
                     + " ".join(n.rstrip(".") + "." for n in ds.notes)
                     + (f" Run: {timing[ds.name]}." if ds.name in timing else ""))
        lines.append("")
        lines.append("| mode (limit 10, default rerank) | recall@10 | MRR |")
        lines.append("| --- | --- | --- |")
        for mode in [m for m in (*MODES, WITHOUT_NEIGHBOURS) if all(m in r["modes"] for r in mine)]:
            lines.append(f"| `{mode}` | {mean(recall_at(r['modes'][mode], r['relevant']) for r in mine):.3f} | "
                         f"{mean(reciprocal_rank(r['modes'][mode], r['relevant']) for r in mine):.3f} |")
        for name, rank in (("plain RRF, k = 60 (reference)", fusion_fit.rrf),
                           ("normalised max, the fusion before (offline)", fusion_fit.normalised_max)):
            pairs = list(zip((rank(r["pool"]) for r in mine), mine, strict=True))
            lines.append(f"| {name} | {mean(recall_at(x, r['relevant']) for x, r in pairs):.3f} | "
                         f"{mean(reciprocal_rank(x, r['relevant']) for x, r in pairs):.3f} |")
        lines.append("")
        kinds = sorted({r["kind"] for r in mine})
        lines.append("| recall@10 by question kind | " + " | ".join(f"{k} ({sum(r['kind'] == k for r in mine)})"
                                                              for k in kinds) + " |")
        lines.append("| --- | " + " | ".join("---" for _ in kinds) + " |")
        for mode in MODES:
            lines.append(f"| `{mode}` | " + " | ".join(
                f"{mean(recall_at(r['modes'][mode], r['relevant']) for r in mine if r['kind'] == k):.3f}"
                for k in kinds) + " |")
        lines.append("")
    lines.append("#### Both halves, through the service (defaults are decided on the tuning halves)")
    lines.append("")
    lines.append("| dataset | half | questions | mode | recall@10 | MRR |")
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for ds in datasets:
        for half in ("tuning", "test"):
            mine = [r for r in rows if r["dataset"] == ds.name and r["half"] == half]
            for mode in [m for m in (*MODES, WITHOUT_NEIGHBOURS) if mine and all(m in r["modes"] for r in mine)]:
                lines.append(f"| {ds.name} | {half} | {len(mine)} | `{mode}` | "
                             f"{mean(recall_at(r['modes'][mode], r['relevant']) for r in mine):.3f} | "
                             f"{mean(reciprocal_rank(r['modes'][mode], r['relevant']) for r in mine):.3f} |")
    lines.append("")
    lines.append("#### Ablation: the fusion refitted without each signal (tuning halves), test halves ranked offline")
    lines.append("")
    names = [ds.name for ds in datasets]
    lines.append("| fusion | " + " | ".join(f"{n} recall@10 | {n} MRR" for n in names) + " |")
    lines.append("| --- | " + " | ".join("--- | ---" for _ in names) + " |")
    variants = [(label, (lambda fusion: lambda r: fusion(r["pool"]))(f))
                for label, f in fusion_fit.ablations(rows, model)]
    if all(n in neighbours for n in names):
        weight = fusion_fit.fit_neighbour_weight([r for r in rows if r["half"] == "tuning"], model, neighbours)
        variants.insert(1, (f"shipped fusion + neighbour turns (offline; weight {weight:g}, from the tuning halves)",
                            fusion_fit.with_neighbours(model, neighbours, weight)))
    for label, variant in variants:
        cells = []
        for n in names:
            mine = [r for r in rows if r["dataset"] == n and r["half"] == "test"]
            pairs = list(zip((variant(r) for r in mine), mine, strict=True))
            cells.append(f"{mean(recall_at(x, r['relevant']) for x, r in pairs):.3f} | "
                         f"{mean(reciprocal_rank(x, r['relevant']) for x, r in pairs):.3f}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Fusion as shipped: {model.describe()}; in hybrid search BM25 and coverage count "
                 f"min(1, {fusion.LONG_QUERY_TERMS} / query terms).")
    for s in skipped:
        lines.append(f"\nSkipped: {s}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default=DEFAULT_DATASETS,
                        help="of realtalk, realmem, madial (default %(default)s)")
    parser.add_argument("--realmem-personas", type=int, default=4, help="of 10, to bound the run (default 4)")
    parser.add_argument("--madial-user-lines", action="store_true",
                        help="MADial questions from the user's lines only "
                             "(a sensitivity check; default: the whole dialogue)")
    parser.add_argument("--realtalk-chats", type=int, help="of 10, to bound the run (default all)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--backend", default="embedded", choices=("embedded", "neo4j"),
                        help="the local backend to run on (default %(default)s; the fusion was fitted on embedded)")
    parser.add_argument("--model", help="a local sentence-transformers model directory (as CREDENCE_EMBEDDING_MODEL); "
                                        "default: the shipped all-MiniLM-L6-v2. The fusion weights stay as shipped "
                                        "unless --fit")
    parser.add_argument("--data-dir", help="kept after the run, and reused by the next run with the same datasets "
                                           "(no second ingest); default: a temporary one, removed after")
    parser.add_argument("--pools", type=Path, help="where the candidate pools are saved (default: "
                        "bench/out/conversation_pools.pkl, or conversation_pools-<datasets>.pkl for other datasets)")
    parser.add_argument("--ingest-only", action="store_true", help="with --data-dir: store the turns and stop")
    parser.add_argument("--ablate", action="store_true",
                        help="also search hybrid without neighbour turns (CREDENCE_NEIGHBOUR_LIFT=0), per question")
    parser.add_argument("--offline", action="store_true", help="rank the saved pools again, without the service")
    parser.add_argument("--fit", action="store_true", help="refit the fusion on the tuning halves and print it")
    parser.add_argument("--record", action="store_true", help="write the tables into docs/benchmarks.md")
    args = parser.parse_args()
    # A run of other datasets, or on the other backend, keeps its own pools and its own block in
    # docs/benchmarks.md, so --offline and --record of the default run are never replaced by it.
    variant = "" if args.datasets == DEFAULT_DATASETS else "-" + args.datasets.replace(",", "-")
    variant += "" if args.backend == "embedded" else "-" + args.backend
    if args.pools is None:
        args.pools = OUT / f"conversation_pools{variant}.pkl"
    datasets, skipped = load_datasets(args)
    if not datasets:
        print("\n".join(skipped) + "\nno dataset to run", file=sys.stderr)
        return
    started = time.perf_counter()
    if args.offline:
        rows, timing, *rest = pickle.loads(args.pools.read_bytes())
        neighbours = rest[0] if rest else {}
    else:
        rows, timing, neighbours = asyncio.run(collect(args, datasets))
        if args.ingest_only:
            return
        args.pools.parent.mkdir(parents=True, exist_ok=True)
        args.pools.write_bytes(pickle.dumps((rows, timing, neighbours)))
    model = fusion_fit.shipped()
    if args.fit:
        fitted = fusion_fit.fit_modes([r for r in rows if r["half"] == "tuning"])
        for mode, m in fitted.items():
            print(f"fitted on the tuning halves, {mode}: {m.weights!r}", file=sys.stderr)
        model = fitted["hybrid"]
    elapsed = time.perf_counter() - started
    title = f"conversation_quality, {', '.join(d.name for d in datasets)}" + (
        "" if args.backend == "embedded" else f", on {args.backend}")
    machine = (f"{date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}; {elapsed:.0f} s")
    for ds in datasets:  # rows of a dataset are in its questions' order; older pools lack `before`
        for r, q in zip([r for r in rows if r["dataset"] == ds.name], ds.questions, strict=False):
            r["before"] = q.before
    body = tables(rows, datasets, skipped, timing, model, args, neighbours)
    print(f"{title}\n{machine}\n\n{body}")
    if args.record:
        record("conversation-quality" + variant, f"### {title}\n\n{machine}\n\n{body}\n")


if __name__ == "__main__":
    main()
