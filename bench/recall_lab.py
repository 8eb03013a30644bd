"""Offline lab for retrieval on real conversations: the service's hybrid search re-enacted in numpy
over the three conversation datasets (bench/conversation_quality.py's), so that representations,
neighbour expansion and query rewriting can be compared on the tuning halves in seconds instead
of a service run per idea. Nothing here runs in the service.

    .venv/bin/python bench/recall_lab.py [--datasets realtalk,realmem,madial] [--model DIR | --model 'bare|DIR|...']
        [--reps text,prev1] [--variants base,neighbours|ideas|kwgrid|kw:stem] [--half tuning|test|both]
        [--weights shipped|fitted|both [--fit-on REALTALK,RealMem]]

What it re-enacts, per question, in the question's tenant (one conversation or persona):
  - vector candidates: the exact cosine of the query against every memory the question may see
    (the service ranks a tenant of more than 500 memories through its HNSW index instead);
  - keyword candidates: BM25 over the tenant (Lucene's formula, binary term frequency, the tenant's
    own statistics: what graph/retrieval/bm25.py computes), of the content terms keywords.terms gives;
  - each retriever's best 100, fused with the shipped weights (graph/retrieval/fusion.py) and
    reranked with the default weights (graph/retrieval/rerank.py), as a limit-10 search does.
Embeddings are cached under bench/out/lab/ (git-ignored), keyed by model, dataset and representation;
a model's first run embeds on the service's runtime, shortest texts first, and checkpoints every
CHUNK texts, so a stopped run resumes. `--weights fitted` refits the fusion for the model on the
tuning halves of `--fit-on` (bench/fusion_fit.py's fit over the lab's pools) and ranks with it.
`--model 'bare|DIR|cls or mean|query prefix|passage prefix'` runs a model given only as an ONNX graph
(its last_hidden_state) and a tokenizer.json in DIR, as Maven Central's LangChain4j packagings of
bge-small-en-v1.5 and e5-small-v2 hold them (docs/benchmarks.md, "Retrieval on real conversations,
round 7").

A representation is what a turn is embedded (and, for `kw:` ones, indexed) as; the memory's text
stays what was said. Representations that name earlier turns use only the turns before it in its
thread (a session), as a write path that embeds a turn when it arrives can."""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import fusion_fit
from bench.datasets import madial, realmem, realtalk
from bench.datasets.common import Dataset, Question, Turn, split
from graph.beliefs.trust import compute_trust
from graph.core.vocab import DEFAULT_SOURCE
from graph.language import stems as stemming
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
    stemmed: dict[str, np.ndarray] = field(default_factory=dict)  # postings of stemmed words
    stem_tokens: list[set[str]] = field(default_factory=list)
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0))
    average: float = 1.0
    speakers: set[str] | None = None

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
        self.stem_tokens = [set(stems(sorted(toks))) for toks in self.tokens]
        stemmed: dict[str, list[int]] = defaultdict(list)
        for i, toks in enumerate(self.stem_tokens):
            for w in toks:
                stemmed[w].append(i)
        self.stemmed = {w: np.array(v) for w, v in stemmed.items()}
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


MODEL_CACHE = Path(tempfile.gettempdir()) / "credence-models"  # ONNX exports, as bench/embedding_models.py
CHUNK = 512  # texts per encoding call; each chunk is checkpointed, so a stopped run resumes


class Encoder:
    """runtime `onnx` embeds as the service does (the model's verified export, equal to
    sentence-transformers within 1e-4 per component); `torch` as sentence-transformers does."""

    def __init__(self, model: str | None, runtime: str = "onnx") -> None:
        self.model_dir, self.runtime, self._model = model, runtime, None
        self.name = Path(model).name if model else "all-MiniLM-L6-v2"
        self.parts: tuple[Encoder, Encoder, float] | None = None
        if model and model.startswith("concat|"):  # concat|W|SPEC: MiniLM beside SPEC, SPEC's cosine at share W
            _, share, spec = model.split("|", 2)
            second = Encoder(spec, runtime)
            self.parts = (Encoder(None, runtime), second, float(share))
            self.name, self.bare = f"concat{share}-{second.name}", None
        elif model and model.startswith("bare|"):  # bare|DIR|pooling|query prefix|passage prefix
            _, folder, pooling, query, passage = model.split("|", 4)
            self.bare = BareOnnx(Path(folder), pooling, query, passage)
            prefixes = hashlib.sha1((query + "|" + passage).encode()).hexdigest()[:6]
            self.name = f"{Path(folder).name}-{pooling}-{prefixes}"
        else:
            self.bare = None

    def encode(self, texts: list[str], tag: str) -> np.ndarray:
        if self.parts is not None:
            # Unit vectors side by side, scaled so the joint cosine is (1 - W) x MiniLM's + W x the other's.
            first, second, share = self.parts
            return np.hstack([np.sqrt(1 - share) * first.encode(texts, tag),
                              np.sqrt(share) * second.encode(texts, tag)]).astype(np.float32)
        digest = hashlib.sha1("\0".join(texts).encode()).hexdigest()[:16]
        path = OUT / f"{self.name}-{tag}-{digest}.npy"
        if path.exists():
            return np.load(path)
        if self.bare is not None:
            self._model = self.bare.side(tag.endswith("questions"))
        elif self._model is None:
            from graph.embedding.encoder import load_embedder
            self._model = load_embedder(self.model_dir, MODEL_CACHE, self.runtime)
        OUT.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part.npy")
        done = [np.load(partial)] if partial.exists() else []
        # Shortest first, so each call pads its texts to about the same length.
        order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
        started, at = time.perf_counter(), sum(len(d) for d in done)
        for start in range(at, len(texts), CHUNK):
            done.append(self._model.encode([texts[i] for i in order[start:start + CHUNK]]).astype(np.float32))
            np.save(partial, np.vstack(done))
            print(f"  {tag}: {min(start + CHUNK, len(texts)):,} of {len(texts):,} texts embedded "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
        vecs = np.zeros_like(np.vstack(done))
        vecs[order] = np.vstack(done)
        np.save(path, vecs)
        partial.unlink(missing_ok=True)
        return vecs


class BareOnnx:
    """A model given as its ONNX graph (last_hidden_state out) and tokenizer.json, pooled here (cls or
    mean) and normalised; queries and passages get their own prefixes, as e5 and bge are trained."""

    def __init__(self, folder: Path, pooling: str, query: str, passage: str) -> None:
        import onnxruntime
        from tokenizers import Tokenizer
        self.pooling, self.query, self.passage = pooling, query, passage
        self.tokenizer = Tokenizer.from_file(str(next(folder.glob("*tokenizer.json"))))
        self.tokenizer.enable_truncation(max_length=512)
        self.tokenizer.no_padding()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 2
        self.session = onnxruntime.InferenceSession(str(next(folder.glob("*.onnx"))), options,
                                                    providers=["CPUExecutionProvider"])

    def side(self, queries: bool) -> BareSide:
        return BareSide(self, self.query if queries else self.passage)


@dataclass
class BareSide:
    model: BareOnnx
    prefix: str

    def encode(self, texts: list[str]) -> np.ndarray:
        out = []
        for start in range(0, len(texts), 32):
            enc = self.model.tokenizer.encode_batch([self.prefix + t for t in texts[start:start + 32]])
            width = max(len(e.ids) for e in enc)
            ids = np.zeros((len(enc), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for r, e in enumerate(enc):
                ids[r, :len(e.ids)], mask[r, :len(e.ids)] = e.ids, 1
            hidden = self.model.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                                   "token_type_ids": np.zeros_like(ids)})[0]
            if self.model.pooling == "cls":
                pooled = hidden[:, 0]
            else:
                pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.vstack(out).astype(np.float32)


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


def bm25(t: Tenant, terms: list[str], weights: dict[str, float] | None = None,
         kw: KeywordSide | None = None, background: dict[str, float] | None = None) -> dict[int, tuple[float, int]]:
    """Memory -> (BM25 over the tenant, query terms held): graph/retrieval/bm25.py's formula; a
    term's weight scales its IDF (pseudo-relevance feedback adds terms at less than 1). `kw` varies
    the keyword side (stemming, k1 and b, a background prior for the IDF from `background`: each
    term's share of English text, wordfreq's)."""
    kw = kw or KeywordSide()
    scores: dict[int, float] = defaultdict(float)
    held: dict[int, int] = defaultdict(int)
    n = len(t.turns)
    postings = t.stemmed if kw.stem else t.postings
    for term in terms:
        docs = postings.get(term)
        if docs is None:
            continue
        idf = term_idf(n, len(docs), (background or {}).get(term, 0.0), t.average, kw)
        idf *= (weights or {}).get(term, 1.0)
        norm = (kw.k1 + 1) / (1 + kw.k1 * (1 - kw.b + kw.b * t.lengths[docs] / t.average))
        for d, s in zip(docs.tolist(), (idf * norm).tolist(), strict=True):
            scores[d] += s
            held[d] += 1
    return {d: (s, held[d]) for d, s in scores.items()}


@dataclass(frozen=True)
class KeywordSide:
    """How keyword terms are matched and weighed. stem: query terms and memory words both Snowball-
    stemmed (English). k1, b: BM25's. prior: a tenant-independent background for each term's IDF,
    from the term's frequency in English text (wordfreq): `mu` pseudo-memories of the tenant's
    average length, each holding the term with the chance that background gives, added to the
    tenant's counts (prior "count"), or the IDF a `mix` of the way from the tenant's to that
    background collection's alone (prior "mix")."""
    stem: bool = False
    k1: float = K1
    b: float = B
    prior: str = ""  # "", count or mix
    exact: float = 0.0  # with stem: the whole-word BM25 added at this share
    plain: tuple[str, ...] = ()  # the question's whole-word terms (set per search)
    mu: float = 0.0
    mix: float = 0.0


BACKGROUND_DOCS = 1_000_000  # the background collection's size, for prior "mix"
FLOOR_FREQUENCY = 1e-8  # wordfreq's 0 (an unseen word): rarer than anything it lists


def term_idf(n: int, df: int, frequency: float, average: float, kw: KeywordSide) -> float:
    """Lucene's IDF over the tenant, with kw's background prior."""
    own = math.log(1 + (n - df + 0.5) / (df + 0.5))
    if not kw.prior:
        return own
    # The chance that a memory of the tenant's average length holds the word at least once.
    held = 1 - (1 - max(frequency, FLOOR_FREQUENCY)) ** max(1.0, average)
    if kw.prior == "count":
        n2, df2 = n + kw.mu, df + kw.mu * held
        return math.log(1 + (n2 - df2 + 0.5) / (df2 + 0.5))
    df0 = BACKGROUND_DOCS * held
    background = math.log(1 + (BACKGROUND_DOCS - df0 + 0.5) / (df0 + 0.5))
    return (1 - kw.mix) * own + kw.mix * background


stems = stemming.stem  # the service's stemmer


_FREQUENCY: dict[str, float] = {}


def frequency(word: str) -> float:
    if word not in _FREQUENCY:
        import wordfreq
        _FREQUENCY[word] = wordfreq.word_frequency(word, "en")
    return _FREQUENCY[word]


def query_terms(text: str, kw: KeywordSide) -> tuple[list[str], dict[str, float]]:
    """The question's keyword terms as kw matches them, and each one's background frequency (a
    stem's: the most frequent of the question's words that stem to it)."""
    plain = keywords.terms(text)
    if not kw.stem:
        return plain, {w: frequency(w) for w in plain} if kw.prior else {}
    out: dict[str, float] = {}
    for w, s in zip(plain, stems(plain), strict=True):
        out[s] = max(out.get(s, 0.0), frequency(w) if kw.prior else 0.0)
    return list(out), out


@dataclass
class Config:
    kw: KeywordSide = KeywordSide()
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
    lift_min: float = 0.0  # lift: a hit lifts its neighbours only at this relevance or more
    lift_margin: float = 0.0  # lift: ... and only this much above the tenth's relevance
    lift_own: float = 0.0  # lift: the lift scaled by the reached turn's own relevance ** this (blend)
    lift_mix: float = 1.0  # lift: the share of the way from its own relevance to the lift (blend)
    lift_cap: int = 0  # lift: at most this many lifted turns among the ten (0: any)
    session: float = 0.0  # a session's share of the best hits' relevance, added to its turns x this
    session_top: int = 20
    session_mode: str = "add"  # add, or mul: the gain also scaled by the turn's own relevance
    speaker: float = 0.0  # relevance added to a turn whose speaker the question names
    vprf_docs: int = 0  # vector feedback (Rocchio): the query vector moved toward the best this many
    vprf_beta: float = 0.0  # ... by this share of their mean vector
    # With --model concat|0.5|SPEC: the second model's share of the cosine for a short question, and
    # for any other query (a message, a dialogue so far); None: the share the vectors were made with.
    share_question: float | None = None
    share_other: float | None = None


def retrieve(t: Tenant, qv: np.ndarray, mask: np.ndarray, terms: list[str],
             term_weights: dict[str, float] | None = None, kw: KeywordSide | None = None,
             background: dict[str, float] | None = None) -> tuple[np.ndarray, np.ndarray, list]:
    """Each retriever's best POOL among the shown memories: the vector side's indices (best first)
    with every cosine, and the keyword side's (memory, (BM25, terms held)), best first."""
    cos = t.emb @ qv
    shown = np.flatnonzero(mask)
    order = shown[np.argsort(-cos[shown], kind="stable")][:POOL]
    found = {d: v for d, v in bm25(t, terms, term_weights, kw, background).items() if mask[d]}
    if kw is not None and kw.exact and kw.plain:
        # whole words matched as said add their own BM25, at a share: a stem match counts, an exact one more
        words = bm25(t, list(kw.plain), None, replace(kw, stem=False), None)
        found = {d: ((s + kw.exact * words[d][0]) if d in words else s, held) for d, (s, held) in found.items()}
    best = sorted(found.items(), key=lambda kv: (-kv[1][0], t.keys[kv[0]]))[:POOL]
    return order, cos, best


def fuse(t: Tenant, q: Question, qv: np.ndarray, cfg: Config, mask: np.ndarray,
         terms: list[str], term_weights: dict[str, float] | None = None,
         background: dict[str, float] | None = None) -> tuple[dict[int, Candidate], float]:
    order, cos, best = retrieve(t, qv, mask, terms, term_weights, cfg.kw, background)
    cands = {int(i): Candidate(int(i), cos=float(cos[i])) for i in order}
    floor = fusion.cosine_floor([c.cos for c in cands.values()], POOL)
    for d, (score, held) in best:
        c = cands.setdefault(d, Candidate(d))
        c.bm25, c.coverage = score, held / max(1, len(terms))
    for c in cands.values():
        c.relevance = fusion.relevance(cfg.fusion_weights, c.cos if c.cos is not None else floor, c.bm25,
                                       c.coverage, len(terms))
    return cands, floor


def pool_rows(lab: Lab, half: str) -> list[dict]:
    """The half's questions as bench/fusion_fit.py fits them: both retrievers' pools of POOL, each
    candidate with its cosine, BM25, term coverage and ranks, and the question's evidence."""
    rows = []
    assert lab.qvecs is not None
    for q, qv in zip(lab.dataset.questions, lab.qvecs, strict=True):
        if lab.halves[q.conversation] != half:
            continue
        t, terms = lab.tenants[q.conversation], keywords.terms(q.text)
        order, cos, best = retrieve(t, qv, visible(t, q), terms)
        cands: dict[int, dict] = {int(i): {"id": t.keys[i], "cos": float(cos[i]), "vrank": rank, "bm25": None,
                                           "krank": None, "cov": 0.0} for rank, i in enumerate(order, 1)}
        for rank, (d, (score, held)) in enumerate(best, 1):
            c = cands.setdefault(d, {"id": t.keys[d], "cos": None, "vrank": None, "cov": 0.0})
            c.update(bm25=score, krank=rank, cov=held / max(1, len(terms)))
        pool = {"cands": list(cands.values()), "floor": fusion.cosine_floor([float(cos[i]) for i in order], POOL),
                "best_bm25": best[0][1][0] if best else 0.0, "terms": len(terms)}
        rows.append({"dataset": lab.dataset.name, "half": half, "pool": pool, "relevant": set(q.evidence)})
    return rows


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
    terms, background = query_terms(text, cfg.kw)
    if cfg.kw.exact:
        cfg = replace(cfg, kw=replace(cfg.kw, plain=tuple(keywords.terms(text))))
    if cfg.share_question is not None:
        share = cfg.share_question if is_question(q.text) else cfg.share_other
        half = len(qv) // 2  # both halves made at share 0.5: each sqrt(0.5) x a unit vector
        qv = np.concatenate([2 * (1 - share) * qv[:half], 2 * share * qv[half:]])
    cands, floor = fuse(t, q, qv, cfg, mask, terms, background=background)
    if cfg.vprf_docs:
        top = [c.i for c in sorted(cands.values(), key=lambda c: -c.relevance)[:cfg.vprf_docs]]
        moved = qv + cfg.vprf_beta * t.emb[top].mean(axis=0)
        qv = moved / np.linalg.norm(moved)
        cands, floor = fuse(t, q, qv, cfg, mask, terms, background=background)
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
    if cfg.speaker:
        named = speakers_named(t, q.text)
        for c in cands.values():
            if named and speaker_of(t.turns[c.i].text) in named:
                c.relevance = min(1.0, c.relevance + cfg.speaker)
    if cfg.session:
        session_boost(t, cands, cfg)
    lifted: set[int] = set()
    if cfg.neighbours and cfg.neighbour_mode == "lift":
        # As the service would: the best neighbour_top (by the rerank) bring their neighbours in,
        # each lifted to at least `neighbours` x the relevance of the hit next to it (blend: how).
        cos = t.emb @ qv
        for c in cands.values():
            c.composite = rerank(t, c)
        ranked = sorted(cands.values(), key=lambda c: (-c.composite, -c.relevance, t.keys[c.i]))
        tenth = ranked[9].relevance if len(ranked) >= 10 else 0.0
        top = [c for c in ranked[:cfg.neighbour_top] if c.relevance >= cfg.lift_min
               and (not cfg.lift_margin or c.relevance - tenth >= cfg.lift_margin)]
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
            own = cands[n].relevance
            raised = blend(own, lift, cfg)
            if raised > own:
                cands[n].relevance = raised
                lifted.add(n)
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
    if cfg.lift_cap:  # at most lift_cap lifted turns in the ten; the others wait behind the rest
        late = set([c.i for c in ranked if c.i in lifted][cfg.lift_cap:])
        ranked = [c for c in ranked if c.i not in late] + [c for c in ranked if c.i in late]
    return [t.keys[c.i] for c in ranked[:10]]


def is_question(text: str) -> bool:
    """A short question ("Where does Kate work?"), not a message or a dialogue that ends in one."""
    text = text.strip()
    return text.endswith("?") and len(text.split()) <= 25


def blend(own: float, lift: float, cfg: Config) -> float:
    """A reached turn's relevance from its own and the lift its hit gives it: the floor max(own,
    lift) by default; lift_own > 0 scales the lift by own ** lift_own (a turn that says nothing of
    the question gains less), lift_mix < 1 moves own only that share of the way to it."""
    value = lift * own ** cfg.lift_own if cfg.lift_own else lift
    return max(own, own + cfg.lift_mix * (value - own))


def speaker_of(text: str) -> str | None:
    """The speaker a turn's text opens with ("Emi: ..."), lower-cased; None without one."""
    head, sep, _ = text.partition(": ")
    return head.lower() if sep and 0 < len(head) <= 40 else None


def speakers_named(t: Tenant, question: str) -> set[str]:
    """The tenant's speakers whose every word the question holds."""
    if t.speakers is None:
        t.speakers = {s for s in (speaker_of(x.text) for x in t.turns) if s is not None}
    said = set(keywords.words(question))
    return {s for s in t.speakers if set(keywords.words(s)) <= said and keywords.words(s)}


def session_boost(t: Tenant, cands: dict[int, Candidate], cfg: Config) -> None:
    """A session whose turns hit often lifts its turns: the relevance of each session's turns among
    the best session_top (by the rerank) is summed, and every candidate of such a session gains
    `session` x its session's sum over the best session's (added, or as a factor: session_mode)."""
    for c in cands.values():
        c.composite = rerank(t, c)
    top = sorted(cands.values(), key=lambda c: (-c.composite, -c.relevance, t.keys[c.i]))[:cfg.session_top]
    mass: dict[str, float] = defaultdict(float)
    for c in top:
        if t.turns[c.i].thread is not None:
            mass[t.turns[c.i].thread] += c.relevance
    if len(mass) < 2:
        return
    most = max(mass.values())
    for c in cands.values():
        share = mass.get(t.turns[c.i].thread or "", 0.0) / most
        if share:
            gain = cfg.session * share * (c.relevance if cfg.session_mode == "mul" else 1.0)
            c.relevance = min(1.0, c.relevance + gain)


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
# The shipped neighbour lift (lift0.9-5-w2) with one more idea each: a hit lifts only when it is
# confident (min: its relevance; margin: over the tenth's), the lift blended with the reached
# turn's own relevance (own: a product; mix: part of the way), at most `cap` lifted turns in the
# ten, a session's share of the best hits (sess: added; sessmul: scaled by the turn's relevance),
# and a turn whose speaker the question names (spk).
SHIPPED_LIFT = {"neighbours": 0.9, "neighbour_mode": "lift", "neighbour_top": 5, "neighbour_window": 2}
IDEAS: dict[str, tuple[str, tuple[float, ...], dict]] = {
    "min": ("lift_min", (0.3, 0.5, 0.7, 0.8), {}),
    "margin": ("lift_margin", (0.05, 0.1, 0.2, 0.3), {}),
    "own": ("lift_own", (0.1, 0.25, 0.5), {}),
    "mix": ("lift_mix", (0.5, 0.7, 0.85), {}),
    "cap": ("lift_cap", (1, 2, 3, 4), {}),
    "top": ("neighbour_top", (2, 3), {}),
    "sess": ("session", (0.05, 0.1, 0.2), {}),
    "sessmul": ("session", (0.1, 0.2, 0.4), {"session_mode": "mul"}),
    "spk": ("speaker", (0.05, 0.1, 0.2), {}),
}
VARIANTS |= {f"lift+{name}{v}": Config(**(SHIPPED_LIFT | {key: v} | extra))
             for name, (key, values, extra) in IDEAS.items() for v in values}
VARIANTS |= {f"vprf{k}-{b}": Config(**SHIPPED_LIFT, kw=KeywordSide(stem=True), vprf_docs=k, vprf_beta=b)
             for k in (3, 5, 10) for b in (0.25, 0.5, 1.0)}
VARIANTS |= {f"qtype{a}-{b}": Config(**SHIPPED_LIFT, kw=KeywordSide(stem=True), share_question=a, share_other=b)
             for a in (0.3, 0.5, 0.7) for b in (0.0, 0.15, 0.3)}
VARIANTS |= {f"sess{v}": Config(session=v) for v in (0.05, 0.1)} | {f"spk{v}": Config(speaker=v) for v in (0.05, 0.1)}
# The keyword side, on the shipped lift (the default search): `kw:` then stem (query terms and memory
# words stemmed), count<mu> or mix<share> (a background prior for the IDF: KeywordSide), k<k1>b<b>.
KW_PRIORS = {"": {}, **{f"count{m}": {"prior": "count", "mu": m} for m in (50, 200, 1000)},
             **{f"mix{x}": {"prior": "mix", "mix": x} for x in (0.25, 0.5)}}
KW_SHAPES = {f"k{k}b{b}": {"k1": k, "b": b} for k in (0.6, 1.2, 2.0) for b in (0.3, 0.75, 1.0)}


def kw_variant(name: str) -> Config:
    """kw:stem+count50+k0.9b0.5 and the like; parts in any order, each optional."""
    side: dict = {}
    for part in name.removeprefix("kw:").split("+"):
        if part == "stem":
            side["stem"] = True
        elif part in KW_PRIORS:
            side |= KW_PRIORS[part]
        elif part.startswith("exact"):
            side["exact"] = float(part.removeprefix("exact"))
        elif part in KW_SHAPES:
            side |= KW_SHAPES[part]
        elif part != "plain":
            raise SystemExit(f"unknown keyword part {part!r}")
    return Config(**SHIPPED_LIFT, kw=KeywordSide(**side))


def kw_grid() -> list[str]:
    """Each part alone, then stemming with each prior and each shape."""
    alone = ["kw:plain", "kw:stem", *(f"kw:{p}" for p in KW_PRIORS if p), *(f"kw:{s}" for s in KW_SHAPES)]
    return alone + [f"kw:stem+{p}" for p in KW_PRIORS if p] + [f"kw:stem+{s}" for s in KW_SHAPES]


FIT_DATASETS = "REALTALK,RealMem"  # what the shipped weights were fitted on (graph/retrieval/fusion.py)


def fitted_weights(labs: list[Lab], encoder: Encoder, fit_on: str, refit: bool) -> fusion.FusionWeights:
    """Hybrid search's fusion weights fitted for this model on the tuning halves of `fit_on`
    (bench/fusion_fit.py's fit, over the lab's pools; each mode's, as the service has one per mode),
    kept in bench/out/lab/fusion-<model>-<datasets>.json."""
    names = fit_on.split(",")
    path = OUT / f"fusion-{encoder.name}-{'-'.join(names)}.json"
    if path.exists() and not refit:
        return fusion.FusionWeights(**json.loads(path.read_text())["hybrid"])
    rows = [r for lab in labs if lab.dataset.name in names for r in pool_rows(lab, "tuning")]
    if {r["dataset"] for r in rows} != set(names):
        sys.exit(f"fitting needs {' and '.join(names)} (--datasets), or a saved {path.name}")
    modes = {mode: m.weights for mode, m in fusion_fit.fit_modes(rows).items()}
    path.write_text(json.dumps({"model": encoder.name, "fitted_on": "tuning halves of " + ", ".join(names),
                                **{mode: asdict(w) for mode, w in modes.items()}}, indent=1))
    for mode, w in modes.items():
        print(f"fitted for {encoder.name} on {fit_on}, {mode}: {w.describe()}", file=sys.stderr)
    print(f"saved to {path}", file=sys.stderr)
    return modes["hybrid"]


def variant_names(spec: str) -> list[str]:
    """Comma-separated names; `ideas` stands for the shipped lift and every idea built on it."""
    out: list[str] = []
    for name in spec.split(","):
        if name == "ideas":
            out += ["base", "lift0.9-5-w2", *(v for v in VARIANTS if v.startswith("lift+"))]
        else:
            out += kw_grid() if name == "kwgrid" else [name]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default="realtalk,realmem,madial")
    parser.add_argument("--realmem-personas", type=int, default=4)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--model", help="a local sentence-transformers model directory (default MiniLM)")
    parser.add_argument("--runtime", default="onnx", choices=("onnx", "torch"),
                        help="what embeds what is not cached yet (default: the service's, ONNX Runtime)")
    parser.add_argument("--reps", default="text", help=f"vector representations, of {', '.join(REPS)}; "
                                                       "rep/kwrep indexes the keyword side with another")
    parser.add_argument("--variants", default="base", help=f"of {', '.join(VARIANTS)}; `ideas`: the shipped lift "
                                                            "and each idea on it; `kwgrid`: the keyword side's grid; "
                                                            "kw:<parts> one keyword variant (kw_variant)")
    parser.add_argument("--half", default="tuning", choices=("tuning", "test", "both"))
    parser.add_argument("--weights", default="shipped", choices=("shipped", "fitted", "both"),
                        help="the fusion's weights: as shipped (fitted on MiniLM), fitted for --model on the "
                             "tuning halves (bench/out/lab/fusion-<model>.json, made when missing), or both")
    parser.add_argument("--fit-on", default=FIT_DATASETS, help="the datasets whose tuning halves --weights fitted "
                                                               "fits on (default %(default)s, as the shipped weights)")
    parser.add_argument("--refit", action="store_true", help="fit again even when the model's weights are saved")
    args = parser.parse_args()
    labs = load(args.datasets.split(","), args.seed, args.realmem_personas)
    encoder = Encoder(args.model, args.runtime)
    halves = ("tuning", "test") if args.half == "both" else (args.half,)
    names = [lab.dataset.name for lab in labs]
    print("| representation | weights | variant | half | " + " | ".join(f"{n} R@10 / MRR" for n in names)
          + " | mean R@10 |")
    print("| --- | --- | --- | --- | " + " | ".join("---" for _ in names) + " | --- |")
    for spec in args.reps.split(","):
        rep, _, kw_rep = spec.partition("/")
        prepare(labs, encoder, rep, kw_rep or "text")
        weights = {"shipped": fusion.WEIGHTS}
        if args.weights != "shipped":
            fitted = fitted_weights(labs, encoder, args.fit_on, args.refit)
            weights = {"fitted": fitted} if args.weights == "fitted" else weights | {"fitted": fitted}
        for variant in variant_names(args.variants):
            for label, w in weights.items():
                for half in halves:
                    cells, recalls = [], []
                    for lab in labs:
                        cfg = kw_variant(variant) if variant.startswith("kw:") else VARIANTS[variant]
                        r, m, _ = evaluate(lab, replace(cfg, fusion_weights=w), half)
                        cells.append(f"{r:.3f} / {m:.3f}")
                        recalls.append(r)
                    print(f"| {spec} | {label} | {variant} | {half} | " + " | ".join(cells)
                          + f" | {sum(recalls) / len(recalls):.3f} |", flush=True)


if __name__ == "__main__":
    main()
