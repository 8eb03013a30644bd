"""How well ingestion's deterministic path turns messages into the right memories and operations.

    .venv/bin/python bench/ingestion_quality.py                  # the test half
    .venv/bin/python bench/ingestion_quality.py --split tune     # the half the rules were written from
    .venv/bin/python bench/ingestion_quality.py --record         # and write the tables into docs/benchmarks.md
    .venv/bin/python bench/ingestion_quality.py --lexical        # no embedding model: similarity unknown
    .venv/bin/python bench/ingestion_quality.py --split tune --folds 1,2   # held-out folds of the tune half
    .venv/bin/python bench/ingestion_quality.py --split tune --no-slots     # without the slot classifier

Each half is also reported in its batches: the first 395 lines of the set and each batch added
later (bench/datasets/ingestion_labelled.md, "Contents"), written after the rules and never read
while writing them, so an added batch of the tune half measures how the rules carry over too.

--folds picks folds of the tune half (bench/datasets/split_ingestion.py `folds`, three balanced by
group): rules written from some folds are measured on the others, to see what carries over to lines
nobody wrote a rule from. --verbose (each wrong line) is refused on the test half: nobody reads it.

Each line of bench/datasets/ingestion_labelled.jsonl (bench/datasets/ingestion_labelled.md says
how it is labelled and scored) is run through the same code the service runs: the rule extractor
(graph/ingestion/extractor.py) with the line's earlier messages as context and the people its known
memories name as the circle, then the decision (graph/ingestion/decide.py) against the line's known
memories, each with its cosine to the candidate from the service's embedding model (what retrieval
would hand the service for a tenant holding just those memories). Scoring follows the guide:
claims matched by (subject, predicate, value), then by (op, target), then by memory type.

Throughput is the rule path alone (extraction and decision, embedding excluded) over every line of
the half, repeated: messages per second on one core."""
from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.datasets.split_ingestion import BATCHES, batch  # noqa: E402
from bench.datasets.split_ingestion import folds as split_folds  # noqa: E402
from bench.record import record  # noqa: E402
from graph.ingestion import kind_classifier, slot_classifier  # noqa: E402
from graph.ingestion.decide import decide_message  # noqa: E402
from graph.ingestion.extractor import CLAIMS_BOTH, KindOf, extract, to_parse  # noqa: E402
from graph.ingestion.known import circle_of, is_multi  # noqa: E402
from graph.ingestion.model import Candidate, Decision, Known, Message  # noqa: E402
from graph.ingestion.slot_classifier import SlotOf  # noqa: E402
from graph.ingestion.temporal import temporal_of  # noqa: E402
from graph.language.classifier import Classifier  # noqa: E402
from graph.language.parser import parse  # noqa: E402

DATA = ROOT / "bench" / "datasets" / "ingestion_labelled.jsonl"
KIND = {"us_ssn": "ssn", "aws_access_key": "api_key", "aws_secret_key": "api_key", "stripe_key": "api_key",
        "openai_key": "api_key", "anthropic_key": "api_key", "google_api_key": "api_key", "credence_key": "api_key",
        "github_token": "token", "slack_token": "token", "jwt": "token", "generic_secret": "token"}
NFOLDS = 3
BATCH = 20  # messages per request for the batched throughput
FIELDS = ("historical", "sensitivity", "effective_from", "expires_at", "recurrence")


def load(split: str, folds: set[int] | None = None, nfolds: int = NFOLDS) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    rows = [r for r in rows if split == "all" or r["split"] == split]
    if folds is not None:
        if split != "tune":
            raise SystemExit("--folds splits the tune half only")
        fold_of = split_folds(rows, nfolds)
        rows = [r for r in rows if fold_of[r["id"]] in folds]
    return rows


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class Similarity:
    """Cosines between texts from the service's embedding model (cached), or none (--lexical)."""

    def __init__(self, lexical: bool) -> None:
        self.model = None
        if not lexical:
            from graph.embedding.encoder import SentenceTransformerEmbedder
            self.model = SentenceTransformerEmbedder(None, 64)
        self.cache: dict[str, Any] = {}

    def vectors(self, texts: list[str]) -> None:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if self.model is not None and missing:
            for t, v in zip(missing, self.model.encode(missing), strict=True):
                self.cache[t] = v

    def __call__(self, a: str, b: str) -> float | None:
        if self.model is None:
            return None
        return float(self.cache[a] @ self.cache[b])


def known_of(row: dict[str, Any]) -> list[Known]:
    out = []
    for i, k in enumerate(row["known"]):
        predicate = k.get("predicate")
        when = temporal_of(k["text"], _at(row["at"]))  # what the store holds of a memory's time
        out.append(Known(id=k["id"], text=k["text"], memory_type=k["memory_type"], subject=k.get("subject"),
                         predicate=predicate, value=k.get("value"),
                         exclusive=not is_multi(predicate, {}) if predicate else True,
                         historical=when.historical, recurrence=when.recurrence, order=i))
    return out


def plan(row: dict[str, Any], similarity: Callable[[str, str], float | None],
         claims: str = CLAIMS_BOTH, docs: dict[str, Any] | None = None,
         kind_of: KindOf | None = None, slot_of: SlotOf | None = None) -> tuple[list[Decision], Any]:
    at = _at(row["at"])
    context = [Message(c["role"], c["text"], _at(c["at"])) for c in row["context"]]
    known = known_of(row)
    extraction = extract(Message(row["role"], row["text"], at), context, circle=circle_of(known), registered={},
                         claims=claims, docs=docs, kind_of=kind_of, slot_of=slot_of)

    def known_for(c: Candidate) -> list[Known]:
        return [Known(**{**k.__dict__, "similarity": similarity(c.text, k.text)}) for k in known]

    previous = next((c.text for c in reversed(context) if c.role == "user"), None)
    return decide_message(extraction.candidates, known_for, lambda p: is_multi(p, {}), previous), extraction


def derived(decisions: list[Decision]) -> list[dict[str, Any]]:
    out = []
    for d in decisions:
        c, claim = d.candidate, d.claim if d.op != "DELETE" else None
        out.append({"memory_type": c.memory_type, "subject": claim.subject if claim else None,
                    "predicate": claim.predicate if claim else None, "value": claim.value if claim else None,
                    "op": d.op, "mode": d.mode, "target": d.target.id if d.target else None,
                    "historical": c.historical, "sensitivity": c.sensitivity,
                    "effective_from": c.effective_from.isoformat() if c.effective_from else None,
                    "expires_at": c.expires_at.isoformat() if c.expires_at else None, "recurrence": c.recurrence,
                    "text": c.text})
    return out


def norm(value: str | None) -> str:
    v = (value or "").strip().lower()
    v = re.sub(r"[\s.,;:!?]+$", "", v)
    return re.sub(r"^(?:a|an|the)\s+", "", v)


def claim_key(m: dict[str, Any]) -> tuple[str, str, str] | None:
    if m["op"] == "DELETE" or m["predicate"] is None:
        return None
    return ((m["subject"] or "").lower(), m["predicate"], norm(m["value"]))


def match(expected: list[dict], got: list[dict]) -> list[tuple[dict, dict]]:
    pairs, left = [], list(got)
    rest = []
    for e in expected:
        k = claim_key(e)
        hit = next((g for g in left if k is not None and claim_key(g) == k), None)
        if hit is not None:
            pairs.append((e, hit))
            left.remove(hit)
        else:
            rest.append(e)
    for rule in (lambda e, g: g["predicate"] is None and e["predicate"] is None and (e["op"], e["target"]) == (
            g["op"], g["target"]),
                 lambda e, g: (e["op"], e["target"]) == (g["op"], g["target"]) and claim_key(g) is None,
                 lambda e, g: e["memory_type"] == g["memory_type"] and claim_key(g) is None and claim_key(e) is None):
        still = []
        for e in rest:
            hit = next((g for g in left if rule(e, g)), None)
            if hit is not None:
                pairs.append((e, hit))
                left.remove(hit)
            else:
                still.append(e)
        rest = still
    return pairs


def rrule_parts(value: str | None) -> frozenset[str]:
    return frozenset(value.split(";")) if value else frozenset()


def evaluate(rows: list[dict[str, Any]], similarity: Similarity, verbose: bool = False,
             source: str = CLAIMS_BOTH, kind_of: Callable[[datetime], KindOf] | None = None,
             slot_of: SlotOf | None = None) -> dict[str, Any]:
    """`kind_of(at)`: the second opinion on claimless kinds for a message sent at `at` (the
    classifier head), or None for the rules alone; `slot_of`: the slot classifier's opinion on a
    sentence no rule read a claim from, or None."""
    ops = [0, 0]
    by_tag: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # operation accuracy of the lines with a tag
    claims = Counter()
    per_predicate: dict[str, Counter] = defaultdict(Counter)
    unruled = Counter()
    fields: dict[str, Counter] = {f: Counter() for f in FIELDS}
    mtype = [0, 0]
    secrets = [0, 0]
    leaks = 0
    errors = []
    if similarity.model is not None:
        similarity.vectors([t for r in rows for t in [r["text"], *(k["text"] for k in r["known"])]])
    for row in rows:
        if similarity.model is not None:
            pass
        decisions, extraction = plan(row, _cached(similarity, row), source,
                                     kind_of=kind_of(_at(row["at"])) if kind_of else None, slot_of=slot_of)
        got = derived(decisions)
        expected = row["expect"]["memories"]
        pairs = match(expected, got)
        before = list(ops)
        matched_got = [id(g) for _, g in pairs]
        wrong = []
        if not expected:
            ops[1] += 1
            if not got:
                ops[0] += 1
            else:
                wrong.append(("should derive nothing", got))
        for e in expected:
            ops[1] += 1
            g = next((g for ee, g in pairs if ee is e), None)
            if g is not None and (g["op"], g["mode"], g["target"]) == (e["op"], e["mode"], e["target"]):
                ops[0] += 1
            else:
                wrong.append(("expected", e, g))
        if expected:
            extra = [g for g in got if id(g) not in matched_got]
            ops[1] += len(extra)
            if extra:
                wrong.append(("extra", extra))
        ek = [claim_key(e) for e in expected if claim_key(e)]
        gk = [claim_key(g) for g in got if claim_key(g)]
        hit = sum(1 for k in gk if k in ek)
        claims["derived"] += len(gk)
        claims["expected"] += len(ek)
        claims["matched"] += hit
        for k in ek:
            per_predicate[k[1] if not k[1].startswith("favorite_") else "favorite_*"]["expected"] += 1
            if k in gk:
                per_predicate[k[1] if not k[1].startswith("favorite_") else "favorite_*"]["matched"] += 1
        for k in gk:
            per_predicate[k[1] if not k[1].startswith("favorite_") else "favorite_*"]["derived"] += 1
        if "unruled" in row["tags"]:
            unruled["derived"] += len(gk)
            unruled["expected"] += len(ek)
            unruled["matched"] += hit
        for e, g in pairs:
            mtype[1] += 1
            mtype[0] += e["memory_type"] == g["memory_type"]
            for f in FIELDS:
                if f == "historical":
                    want, have = bool(e[f]), bool(g[f])
                elif f == "sensitivity":
                    want, have = (e[f] if e[f] != "normal" else None), (g[f] if g[f] != "normal" else None)
                elif f == "recurrence":
                    want, have = rrule_parts(e[f]) or None, rrule_parts(g[f]) or None
                else:
                    want, have = e[f], g[f]
                if want:
                    fields[f]["expected"] += 1
                if have:
                    fields[f]["derived"] += 1
                if want and have and want == have:
                    fields[f]["matched"] += 1
        kinds = {KIND.get(k, k) for k, _, _ in extraction.secrets}
        for s in row["expect"]["secrets"]:
            secrets[1] += 1
            secrets[0] += s["kind"] in kinds
            if any(s["value"] in (g["text"] or "") for g in got):
                leaks += 1
        for tag in row["tags"]:
            by_tag[tag][0] += ops[0] - before[0]
            by_tag[tag][1] += ops[1] - before[1]
        if wrong:
            errors.append((row, wrong, got))
    if verbose:
        for row, wrong, _ in errors:
            print(f"\n{row['id']} {row['text']!r}")
            for w in wrong:
                print("   ", w)
    return {"lines": len(rows), "ops": ops, "by_tag": by_tag, "claims": claims, "per_predicate": per_predicate,
            "unruled": unruled, "fields": fields, "memory_type": mtype, "secrets": secrets, "leaks": leaks,
            "errors": len(errors)}


def _cached(similarity: Similarity, row: dict[str, Any]) -> Callable[[str, str], float | None]:
    def cos(a: str, b: str) -> float | None:
        if similarity.model is None:
            return None
        similarity.vectors([a, b])
        return similarity(a, b)
    return cos


def throughput(rows: list[dict[str, Any]], rounds: int = 5, claims: str = CLAIMS_BOTH,
               batch: int = 1) -> tuple[float, float]:
    """Messages per second of wall time, and per second of this process's CPU time (what one core
    gives it when others are busy: the machine is shared). `batch`: messages per request, whose
    sentences the service parses in one batch (RuleExtractor.prepare)."""
    none = Similarity(lexical=True)
    plan(rows[0], _cached(none, rows[0]), claims)  # loads the parser, once per process
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        for i in range(0, len(rows), batch):
            chunk = rows[i:i + batch]
            docs = None
            if claims != "lexical" and batch > 1:
                texts = to_parse([Message(r["role"], r["text"], _at(r["at"])) for r in chunk])
                docs = dict(zip(texts, parse(texts), strict=True))
            for row in chunk:
                plan(row, _cached(none, row), claims, docs)
    done = rounds * len(rows)
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu)


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "n/a"


def report(split: str, r: dict[str, Any], rate: tuple[float, float], batched: tuple[float, float]) -> str:
    c, u = r["claims"], r["unruled"]
    lines = [f"Split `{split}`: {r['lines']} lines, {platform.machine()}, Python {platform.python_version()}.", "",
             "| measure | value | target |", "| --- | ---: | ---: |",
             f"| operation accuracy | {pct(*r['ops'])} ({r['ops'][0]}/{r['ops'][1]}) | >= 90% |",
             f"| claim precision | {pct(c['matched'], c['derived'])} ({c['matched']}/{c['derived']}) | >= 90% |",
             f"| claim recall | {pct(c['matched'], c['expected'])} ({c['matched']}/{c['expected']}) | >= 80% |",
             (f"| open slots (`unruled` lines): precision / recall | {pct(u['matched'], u['derived'])} / "
              f"{pct(u['matched'], u['expected'])} | |"),
             f"| memory type accuracy (matched memories) | {pct(*r['memory_type'])} | |",
             f"| secrets recall | {pct(*r['secrets'])} ({r['secrets'][0]}/{r['secrets'][1]}) | 100% |",
             f"| secret values inside a derived memory | {r['leaks']} | 0 |",
             (f"| rule-path throughput (extraction + decision, no embedding), wall / CPU | {rate[0]:,.0f} / "
              f"{rate[1]:,.0f} messages/s | >= 200 |"),
             (f"| the same, {BATCH} messages per request (parsed in one batch), wall / CPU | {batched[0]:,.0f} / "
              f"{batched[1]:,.0f} messages/s | >= 200 |"), "",
             "| field | precision | recall |", "| --- | ---: | ---: |"]
    for f, k in r["fields"].items():
        lines.append(f"| {f} | {pct(k['matched'], k['derived'])} ({k['matched']}/{k['derived']}) | "
                     f"{pct(k['matched'], k['expected'])} ({k['matched']}/{k['expected']}) |")
    lines += ["", "| lines tagged | operation accuracy |", "| --- | ---: |"]
    lines += [f"| `{t}` | {pct(*k)} ({k[0]}/{k[1]}) |" for t, k in sorted(r["by_tag"].items())]
    lines += ["", "| predicate | precision | recall |", "| --- | ---: | ---: |"]
    for p, k in sorted(r["per_predicate"].items()):
        lines.append(f"| `{p}` | {pct(k['matched'], k['derived'])} | {pct(k['matched'], k['expected'])} |")
    return "\n".join(lines) + "\n"


def parts(rows: list[dict[str, Any]], whole: dict[str, Any], similarity: Similarity, source: str,
          kind_of: Callable[[datetime], KindOf] | None = None, slot_of: SlotOf | None = None) -> str:
    """Operations and claims on the whole half and on each batch of lines it holds (the first set,
    then each batch added later, written without reading the lines of either half)."""
    out = ["| lines | count | operation accuracy | claim precision | claim recall | open slots P / R |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    bounds = [0, *BATCHES]
    named = [("all", whole)]
    for b in sorted({batch(r) for r in rows}):
        first = f"u{bounds[b] + 1:04d}"
        span = f"{first}-u{BATCHES[b]:04d}" if b < len(BATCHES) else f"{first} onwards"
        name = f"first {BATCHES[0]} ({span})" if b == 0 else f"added in batch {b} ({span})"
        named.append((name, evaluate([r for r in rows if batch(r) == b], similarity, False, source, kind_of,
                                              slot_of)))
    for name, r in named:
        c, u = r["claims"], r["unruled"]
        out.append(f"| {name} | {r['lines']} | {pct(*r['ops'])} | {pct(c['matched'], c['derived'])} | "
                   f"{pct(c['matched'], c['expected'])} | {pct(u['matched'], u['derived'])} / "
                   f"{pct(u['matched'], u['expected'])} |")
    return "\n".join(out) + "\n"


def _shipped(similarity: Similarity, for_model: Callable[[str, int], Classifier | None]) -> Classifier | None:
    """A shipped classifier, when the similarity's model is loaded and is the one it was fitted on."""
    model = similarity.model
    return for_model(model.name, model.dimensions) if model is not None else None


def _embedding_of(similarity: Similarity) -> Callable[[str], Any]:
    def embedding_of(sentence: str) -> Any:
        similarity.vectors([sentence])
        return similarity.cache[sentence]
    return embedding_of


def shipped_kinds(similarity: Similarity) -> Callable[[datetime], KindOf] | None:
    """The service's second opinion on claimless kinds, when its model is loaded and matches."""
    head = _shipped(similarity, kind_classifier.for_model)
    if head is None:
        return None
    opinion = kind_classifier.second_opinion(head, _embedding_of(similarity))
    return lambda at: opinion


def shipped_slots(similarity: Similarity) -> SlotOf | None:
    """The service's slot classifier (graph/ingestion/slot_classifier.py), when its model is loaded and
    matches."""
    head = _shipped(similarity, slot_classifier.for_model)
    return None if head is None else slot_classifier.slot_opinion(head, _embedding_of(similarity))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="test", choices=("tune", "test", "all"))
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--lexical", action="store_true", help="no embedding model: decisions without cosines")
    ap.add_argument("--verbose", action="store_true", help="print every line with a wrong decision")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--folds", help="comma-separated folds of the tune half (0..2) to measure on")
    ap.add_argument("--claims", default=CLAIMS_BOTH, choices=("parsed", "lexical", "both"),
                    help="where claims come from: the parse's frames, the word patterns, or both")
    ap.add_argument("--rules-only", action="store_true",
                    help="without the shipped classifier of claimless kinds (graph/ingestion/kind_classifier.py)")
    ap.add_argument("--no-slots", action="store_true",
                    help="without the shipped slot classifier (graph/ingestion/slot_classifier.py)")
    args = ap.parse_args()
    if args.verbose and args.split != "tune":
        raise SystemExit("--verbose prints lines: only for the tune half (the test half is not read)")
    folds = {int(f) for f in args.folds.split(",")} if args.folds else None
    rows = load(args.split, folds)
    similarity = Similarity(args.lexical)
    kind_of = None if args.rules_only else shipped_kinds(similarity)
    slot_of = None if args.rules_only or args.no_slots else shipped_slots(similarity)
    result = evaluate(rows, similarity, args.verbose, args.claims, kind_of, slot_of)
    rate = throughput(rows, args.rounds, args.claims)
    batched = throughput(rows, args.rounds, args.claims, BATCH)
    table = report(args.split + (f" folds {args.folds}" if folds else ""), result, rate, batched)
    if folds is None and args.split != "all":
        table += "\n" + parts(rows, result, similarity, args.claims, kind_of, slot_of)
    print(table)
    if args.record:
        record(f"ingestion-quality-{args.split}", table)


if __name__ == "__main__":
    main()
