"""Offline lab for retrieval on real conversations: the service's hybrid search re-enacted in numpy
over the three conversation datasets (bench/conversation_quality.py's), so that representations,
neighbour expansion and query rewriting can be compared on the tuning halves in seconds instead
of a service run per idea. Nothing here runs in the service.

    .venv/bin/python bench/recall_lab.py [--datasets realtalk,realmem,madial] [--model DIR]
        [--reps text,prev1] [--variants base,neighbours] [--half tuning|test|both]

What it re-enacts, per question, in the question's tenant (one conversation or persona):
  - vector candidates: the exact cosine of the query against every memory the question may see
    (the service ranks a tenant of more than 500 memories through its HNSW index instead);
  - keyword candidates: BM25 over the tenant (Lucene's formula, binary term frequency, the tenant's
    own statistics: what graph/retrieval/bm25.py computes), of the content terms keywords.terms gives;
  - each retriever's best 100, fused with the shipped weights (graph/retrieval/fusion.py) and
    reranked with the default weights (graph/retrieval/rerank.py), as a limit-10 search does.
Embeddings are cached under bench/out/lab/ (git-ignored), keyed by model, dataset and representation.

A representation is what a turn is embedded (and, for `kw:` ones, indexed) as; the memory's text
stays what was said. Representations that name earlier turns use only the turns before it in its
thread (a session), as a write path that embeds a turn when it arrives can."""
from __future__ import annotations

import argparse
import hashlib
import math
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.datasets import madial, realmem, realtalk
from bench.datasets.common import Dataset, Question, Turn, split
from graph.beliefs.trust import compute_trust
from graph.core.vocab import DEFAULT_SOURCE
from graph.retrieval import fusion, keywords, when
from graph.retrieval.bm25 import K1, B
from graph.retrieval.rerank import Weights, composite, signals

OUT = Path(__file__).resolve().parent / "out" / "lab"
POOL = 100
MAX_CHARS = 8_000  # as bench/conversation_quality.py
NOW = datetime(2026, 11, 24, tzinfo=UTC)  # the day of the recorded service runs: recency counts from it
TRUST = compute_trust(DEFAULT_SOURCE).trust
IMPORTANCE = 0.5


# --- representations -------------------------------------------------------------------------------

def _date(t: Turn) -> str:
    return t.event_at.strftime("%d %B %Y")


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:chars].rsplit(" ", 1)[0] + " …"


def rep_text(thread: list[Turn], i: int) -> str:
    return thread[i].text


def rep_date(thread: list[Turn], i: int) -> str:
    return f"{_date(thread[i])}. {thread[i].text}"


def rep_prev(n: int, chars: int, date: bool = False, after: bool = False) -> Callable[[list[Turn], int], str]:
    def rep(thread: list[Turn], i: int) -> str:
        before = [_cut(t.text, chars) for t in thread[max(0, i - n):i]]
        own = thread[i].text
        head = f"{_date(thread[i])}. " if date else ""
        if after:
            return head + own + ("\n" + "\n".join(before) if before else "")
        return head + "\n".join([*before, own])
    return rep


def rep_next(chars: int) -> Callable[[list[Turn], int], str]:
    """The previous and the next turn: not available when a turn is written (the next one comes
    later); measured as a ceiling for re-embedding a turn when its successor arrives."""
    def rep(thread: list[Turn], i: int) -> str:
        parts = [_cut(t.text, chars) for t in thread[max(0, i - 1):i]] + [thread[i].text]
        parts += [_cut(t.text, chars) for t in thread[i + 1:i + 2]]
        return "\n".join(parts)
    return rep


def rep_topic(n: int, chars: int) -> Callable[[list[Turn], int], str]:
    """The thread's first turn (what the conversation opened with: its topic, as near as a write
    path can tell), then the n turns before this one and the turn itself."""
    def rep(thread: list[Turn], i: int) -> str:
        first = [_cut(thread[0].text, chars)] if i > n else []
        return "\n".join([*first, *(_cut(t.text, chars) for t in thread[max(0, i - n):i]), thread[i].text])
    return rep


REPS: dict[str, Callable[[list[Turn], int], str]] = {
    "text": rep_text,
    "date": rep_date,
    "prev1": rep_prev(1, 300),
    "prev1long": rep_prev(1, 1000),
    "prev2": rep_prev(2, 300),
    "prev3": rep_prev(3, 200),
    "prev1date": rep_prev(1, 300, date=True),
    "prev1after": rep_prev(1, 300, after=True),
    "prevnext": rep_next(300),
    "topic": rep_topic(0, 300),
    "topicprev1": rep_topic(1, 300),
}


# --- data -------------------------------------------------------------------------------------------

@dataclass
class Tenant:
    name: str
    turns: list[Turn]
    keys: list[str] = field(default_factory=list)
    at: np.ndarray = field(default_factory=lambda: np.zeros(0))  # event_at, epoch seconds
    prev: list[int | None] = field(default_factory=list)  # the turn before in its thread
    next: list[int | None] = field(default_factory=list)
    emb: np.ndarray | None = None
    postings: dict[str, np.ndarray] = field(default_factory=dict)
    tokens: list[set[str]] = field(default_factory=list)
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0))
    average: float = 1.0

    def __post_init__(self) -> None:
        self.keys = [t.key for t in self.turns]
        self.at = np.array([t.event_at.timestamp() for t in self.turns])
        self.prev, self.next = [None] * len(self.turns), [None] * len(self.turns)
        last: dict[str, int] = {}
        for i, t in enumerate(self.turns):
            if t.thread is not None:
                if t.thread in last:
                    self.prev[i], self.next[last[t.thread]] = last[t.thread], i
                last[t.thread] = i

    def threads(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for i, t in enumerate(self.turns):
            out[t.thread or f"\0{i}"].append(i)
        return out

    def texts(self, rep: Callable[[list[Turn], int], str]) -> list[str]:
        out = [""] * len(self.turns)
        for members in self.threads().values():
            thread = [self.turns[i] for i in members]
            for j, i in enumerate(members):
                out[i] = rep(thread, j)[:MAX_CHARS]
        return out

    def index(self, texts: list[str]) -> None:
        """The keyword side over these texts: tokens per memory, postings, lengths in words (as
        retrieval/keyword_exact counts them: split on spaces)."""
        self.tokens = [set(keywords.words(t)) for t in texts]
        postings: dict[str, list[int]] = defaultdict(list)
        for i, toks in enumerate(self.tokens):
            for w in toks:
                postings[w].append(i)
        self.postings = {w: np.array(v) for w, v in postings.items()}
        self.lengths = np.array([len(t.split(" ")) for t in texts], dtype=float)
        self.average = float(self.lengths.mean()) if len(texts) else 1.0


@dataclass
class Lab:
    dataset: Dataset
    tenants: dict[str, Tenant]
    halves: dict[str, str]  # conversation -> tuning | test
    qvecs: np.ndarray | None = None


def load(names: list[str], seed: int, realmem_personas: int) -> list[Lab]:
    labs = []
    for name in names:
        ds = (realtalk.load() if name == "realtalk" else realmem.load(personas=realmem_personas)
              if name == "realmem" else madial.load() if name == "madial" else None)
        if ds is None:
            print(f"{name}: absent, skipped", file=sys.stderr)
            continue
        tune, test = split(list(ds.conversations), seed)
        labs.append(Lab(ds, {c: Tenant(c, ts) for c, ts in ds.conversations.items()},
                        dict.fromkeys(tune, "tuning") | dict.fromkeys(test, "test")))
    return labs


class Encoder:
    def __init__(self, model: str | None) -> None:
        self.model_dir, self._model = model, None
        self.name = Path(model).name if model else "all-MiniLM-L6-v2"

    def encode(self, texts: list[str], tag: str) -> np.ndarray:
        digest = hashlib.sha1("\0".join(texts).encode()).hexdigest()[:16]
        path = OUT / f"{self.name}-{tag}-{digest}.npy"
        if path.exists():
            return np.load(path)
        if self._model is None:
            from graph.embedding.encoder import SentenceTransformerEmbedder
            self._model = SentenceTransformerEmbedder(self.model_dir).model
        started = time.perf_counter()
        vecs = self._model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True,
                                  show_progress_bar=False).astype(np.float32)
        print(f"  embedded {len(texts):,} texts ({tag}) in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        OUT.mkdir(parents=True, exist_ok=True)
        np.save(path, vecs)
        return vecs


def prepare(labs: list[Lab], encoder: Encoder, rep: str, kw_rep: str) -> None:
    for lab in labs:
        texts = {c: t.texts(REPS[rep]) for c, t in lab.tenants.items()}
        flat = [x for c in lab.tenants for x in texts[c]]
        vecs = encoder.encode(flat, f"{lab.dataset.name}-{rep}")
        start = 0
        for c, t in lab.tenants.items():
            t.emb = vecs[start:start + len(t.turns)]
            start += len(t.turns)
            t.index(texts[c] if kw_rep == rep else t.texts(REPS[kw_rep]))
        if lab.qvecs is None:
            lab.qvecs = encoder.encode([q.text for q in lab.dataset.questions], f"{lab.dataset.name}-questions")


# --- one search -------------------------------------------------------------------------------------

@dataclass
class Candidate:
    i: int
    cos: float | None = None
    bm25: float | None = None
    coverage: float = 0.0
    relevance: float = 0.0
    composite: float = 0.0


def visible(t: Tenant, q: Question) -> np.ndarray:
    mask = np.ones(len(t.turns), dtype=bool)
    if q.before is not None:
        mask &= t.at < q.before.timestamp()
    if q.own_turn is not None and q.own_turn in t.keys:
        mask[t.keys.index(q.own_turn)] = False
    return mask


def bm25(t: Tenant, terms: list[str], weights: dict[str, float] | None = None) -> dict[int, tuple[float, int]]:
    """Memory -> (BM25 over the tenant, query terms held): graph/retrieval/bm25.py's formula; a
    term's weight scales its IDF (pseudo-relevance feedback adds terms at less than 1)."""
    scores: dict[int, float] = defaultdict(float)
    held: dict[int, int] = defaultdict(int)
    n = len(t.turns)
    for term in terms:
        docs = t.postings.get(term)
        if docs is None:
            continue
        idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5)) * (weights or {}).get(term, 1.0)
        norm = (K1 + 1) / (1 + K1 * (1 - B + B * t.lengths[docs] / t.average))
        for d, s in zip(docs.tolist(), (idf * norm).tolist(), strict=True):
            scores[d] += s
            held[d] += 1
    return {d: (s, held[d]) for d, s in scores.items()}


@dataclass
class Config:
    neighbours: float = 0.0  # weight of the better neighbour's relevance
    neighbour_top: int = 10  # the best this many bring their neighbours into the pool
    neighbour_mode: str = "add"  # add: rel + w x best neighbour; max: max(rel, w x best neighbour); lift
    neighbour_window: int = 1  # lift: turns either side (each step away multiplies the lift by `neighbours`)
    neighbour_sides: str = "both"  # lift: both, prev, next
    prf_docs: int = 0  # pseudo-relevance feedback: expansion terms from the best this many
    prf_terms: int = 5
    prf_weight: float = 0.3
    fusion_weights: fusion.FusionWeights = fusion.WEIGHTS
    date_bonus: float = 0.0  # relevance added to a memory said within a window the question names
    date_pool: int = 0  # the best this many (by cosine) of the window's memories join the candidates
    date_terms: bool = True  # False: the words of a date the question names are not keyword terms


def fuse(t: Tenant, q: Question, qv: np.ndarray, cfg: Config, mask: np.ndarray,
         terms: list[str], term_weights: dict[str, float] | None = None) -> tuple[dict[int, Candidate], float]:
    cos = t.emb @ qv
    shown = np.flatnonzero(mask)
    order = shown[np.argsort(-cos[shown], kind="stable")][:POOL]
    cands = {int(i): Candidate(int(i), cos=float(cos[i])) for i in order}
    floor = fusion.cosine_floor([c.cos for c in cands.values()], POOL)
    found = {d: v for d, v in bm25(t, terms, term_weights).items() if mask[d]}
    best = sorted(found.items(), key=lambda kv: (-kv[1][0], t.keys[kv[0]]))[:POOL]
    for d, (score, held) in best:
        c = cands.setdefault(d, Candidate(d))
        c.bm25, c.coverage = score, held / max(1, len(terms))
    for c in cands.values():
        c.relevance = fusion.relevance(cfg.fusion_weights, c.cos if c.cos is not None else floor, c.bm25,
                                       c.coverage, len(terms))
    return cands, floor


def rerank(t: Tenant, c: Candidate) -> float:
    s = signals(c.relevance, TRUST, t.turns[c.i].event_at, IMPORTANCE, NOW, t.turns[c.i].event_at)
    return composite(s, Weights())


def search(t: Tenant, q: Question, qv: np.ndarray, cfg: Config) -> list[str]:
    mask = visible(t, q)
    spans = when.windows(q.text, q.before or NOW) if cfg.date_bonus or cfg.date_pool or not cfg.date_terms else []
    text = q.text
    if not cfg.date_terms:
        for w in spans:
            text = text.replace(w.text, " ")
    terms = keywords.terms(text)
    cands, floor = fuse(t, q, qv, cfg, mask, terms)
    if spans and (cfg.date_bonus or cfg.date_pool):
        inside = np.array([any(w.holds(turn.event_at) for w in spans) for turn in t.turns]) & mask
        if cfg.date_pool:
            cos = t.emb @ qv
            idx = np.flatnonzero(inside)
            for i in idx[np.argsort(-cos[idx], kind="stable")][:cfg.date_pool]:
                if int(i) not in cands:
                    c = cands[int(i)] = Candidate(int(i), cos=float(cos[i]))
                    c.relevance = fusion.relevance(cfg.fusion_weights, c.cos, None, 0.0, len(terms))
        for c in cands.values():
            if inside[c.i]:
                c.relevance = min(1.0, c.relevance + cfg.date_bonus)
    if cfg.prf_docs:
        top = sorted(cands.values(), key=lambda c: -c.relevance)[:cfg.prf_docs]
        extra = feedback_terms(t, [c.i for c in top], terms, cfg.prf_terms)
        if extra:
            weights = dict.fromkeys(terms, 1.0) | dict.fromkeys(extra, cfg.prf_weight)
            cands, floor = fuse(t, q, qv, cfg, mask, terms + extra, weights)
            # coverage and damping stay those of the question's own terms
            for c in cands.values():
                held = len(t.tokens[c.i] & set(terms))
                c.coverage = held / max(1, len(terms)) if c.bm25 is not None else 0.0
                c.relevance = fusion.relevance(cfg.fusion_weights, c.cos if c.cos is not None else floor, c.bm25,
                                               c.coverage, len(terms))
    if cfg.neighbours and cfg.neighbour_mode == "lift":
        # As the service would: the best neighbour_top (by the rerank) bring their neighbours in,
        # each lifted to at least `neighbours` x the relevance of the hit next to it.
        cos = t.emb @ qv
        for c in cands.values():
            c.composite = rerank(t, c)
        top = sorted(cands.values(), key=lambda c: (-c.composite, -c.relevance, t.keys[c.i]))[:cfg.neighbour_top]
        lifts: dict[int, float] = {}
        for c in top:
            for step, sides in enumerate(_around(t, c.i, cfg.neighbour_window, cfg.neighbour_sides), 1):
                for n in sides:
                    if mask[n]:
                        lifts[n] = max(lifts.get(n, 0.0), c.relevance * cfg.neighbours ** step)
        for n, lift in lifts.items():
            if n not in cands:
                cands[n] = Candidate(n, cos=float(cos[n]))
                cands[n].relevance = fusion.relevance(cfg.fusion_weights, float(cos[n]), None, 0.0, len(terms))
            cands[n].relevance = max(cands[n].relevance, lift)
    elif cfg.neighbours:
        cos = t.emb @ qv
        rel = {i: c.relevance for i, c in cands.items()}
        for c in sorted(cands.values(), key=lambda c: -c.relevance)[:cfg.neighbour_top]:
            for n in (t.prev[c.i], t.next[c.i]):
                if n is not None and mask[n] and n not in cands:
                    cands[n] = Candidate(n, cos=float(cos[n]))
                    cands[n].relevance = rel[n] = fusion.relevance(cfg.fusion_weights, float(cos[n]), None, 0.0,
                                                                   len(terms))
        for c in cands.values():
            around = [rel[n] for n in (t.prev[c.i], t.next[c.i]) if n is not None and n in rel]
            best = max(around, default=0.0)
            c.relevance = (c.relevance + cfg.neighbours * best if cfg.neighbour_mode == "add"
                           else max(c.relevance, cfg.neighbours * best))
            c.relevance = min(1.0, c.relevance)
    for c in cands.values():
        c.composite = rerank(t, c)
    ranked = sorted(cands.values(), key=lambda c: (-c.composite, -c.relevance, t.keys[c.i]))
    return [t.keys[c.i] for c in ranked[:10]]


def _around(t: Tenant, i: int, window: int, sides: str) -> list[list[int]]:
    """The turns 1, 2, ... steps from turn i in its thread, per step."""
    out, back, ahead = [], i, i
    for _ in range(window):
        step = []
        back = t.prev[back] if back is not None else None
        ahead = t.next[ahead] if ahead is not None else None
        if back is not None and sides in ("both", "prev"):
            step.append(back)
        if ahead is not None and sides in ("both", "next"):
            step.append(ahead)
        out.append(step)
    return out


def feedback_terms(t: Tenant, docs: list[int], terms: list[str], n: int) -> list[str]:
    """The n words the top documents share most, weighted by their rarity in the tenant."""
    counts: dict[str, int] = defaultdict(int)
    for d in docs:
        for w in t.tokens[d]:
            if w not in keywords.STOPWORDS and w not in terms and not w.isdigit() and len(w) > 2:
                counts[w] += 1
    size = len(t.turns)
    scored = {w: k * math.log(1 + size / len(t.postings[w])) for w, k in counts.items() if k >= 2}
    return [w for w, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


# --- evaluation -------------------------------------------------------------------------------------

def evaluate(lab: Lab, cfg: Config, half: str) -> tuple[float, float, int]:
    recall = mrr = 0.0
    n = 0
    assert lab.qvecs is not None
    for q, qv in zip(lab.dataset.questions, lab.qvecs, strict=True):
        if lab.halves[q.conversation] != half:
            continue
        top = search(lab.tenants[q.conversation], q, qv, cfg)
        recall += len(set(top) & q.evidence) / len(q.evidence)
        mrr += next((1 / k for k, x in enumerate(top, 1) if x in q.evidence), 0.0)
        n += 1
    return recall / n, mrr / n, n


VARIANTS: dict[str, Config] = {
    "base": Config(),
    "nb0.05": Config(neighbours=0.05),
    "nb0.1": Config(neighbours=0.1),
    "nb0.2": Config(neighbours=0.2),
    "nbmax0.8": Config(neighbours=0.8, neighbour_mode="max"),
    "nbmax0.9": Config(neighbours=0.9, neighbour_mode="max"),
    **{f"lift{f}-{n}": Config(neighbours=f, neighbour_mode="lift", neighbour_top=n)
       for f in (0.8, 0.9, 0.95) for n in (5, 10, 20)},
    **{f"lift{f}-{n}-w{w}": Config(neighbours=f, neighbour_mode="lift", neighbour_top=n, neighbour_window=w)
       for f in (0.85, 0.9, 0.95) for n in (5, 10) for w in (2, 3, 4)},
    "lift0.9-10-prev": Config(neighbours=0.9, neighbour_mode="lift", neighbour_sides="prev"),
    "lift0.9-10-next": Config(neighbours=0.9, neighbour_mode="lift", neighbour_sides="next"),
    **{f"date{b}-{p}": Config(date_bonus=b, date_pool=p) for b in (0.1, 0.2, 0.3) for p in (0, 20)},
    "date0.2-20-noterms": Config(date_bonus=0.2, date_pool=20, date_terms=False),
    "noterms": Config(date_terms=False),
    "prf3": Config(prf_docs=3),
    "prf5": Config(prf_docs=5),
    "prf10": Config(prf_docs=10, prf_terms=8, prf_weight=0.2),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default="realtalk,realmem,madial")
    parser.add_argument("--realmem-personas", type=int, default=4)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--model", help="a local sentence-transformers model directory (default MiniLM)")
    parser.add_argument("--reps", default="text", help=f"vector representations, of {', '.join(REPS)}; "
                                                       "rep/kwrep indexes the keyword side with another")
    parser.add_argument("--variants", default="base", help=f"of {', '.join(VARIANTS)}")
    parser.add_argument("--half", default="tuning", choices=("tuning", "test", "both"))
    args = parser.parse_args()
    labs = load(args.datasets.split(","), args.seed, args.realmem_personas)
    encoder = Encoder(args.model)
    halves = ("tuning", "test") if args.half == "both" else (args.half,)
    names = [lab.dataset.name for lab in labs]
    print("| representation | variant | half | " + " | ".join(f"{n} R@10 / MRR" for n in names) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in names) + " |")
    for spec in args.reps.split(","):
        rep, _, kw_rep = spec.partition("/")
        prepare(labs, encoder, rep, kw_rep or "text")
        for variant in args.variants.split(","):
            for half in halves:
                cells = []
                for lab in labs:
                    r, m, _ = evaluate(lab, VARIANTS[variant], half)
                    cells.append(f"{r:.3f} / {m:.3f}")
                print(f"| {spec} | {variant} | {half} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
