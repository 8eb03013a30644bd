"""Where ingestion's wrong operations come from, on the tuning half: the extraction (no claim, a
wrong claim, a claimless memory not found or found where none was meant), the memory type, the
decision against what is known (the wrong op, mode or target), the time markers, and lines that
should yield nothing.

    .venv/bin/python bench/ingestion_misses.py                 # tune half, rules as written
    .venv/bin/python bench/ingestion_misses.py --batch 4       # one batch of the tune half
    .venv/bin/python bench/ingestion_misses.py --folds         # held-out folds, each with its own
                                                               # branches off and the classifier
                                                               # fitted on the other two (as
                                                               # bench/ingestion_folds.py, floor 0.5)
    .venv/bin/python bench/ingestion_misses.py --folds --no-slots  # the same without the slot classifier

Each decision the operation accuracy counts (bench/ingestion_quality.py) that is wrong gets one
source, the first that applies:

- `nothing expected, claim derived` / `nothing expected, claimless derived`: a hard negative (or a
  refused deletion) yielded a memory;
- `extraction: no claim` / `extraction: wrong value` / `extraction: wrong subject or slot`: an
  expected claim was not derived (with the slot right and the value wrong; with the value right
  and the subject or predicate wrong; or nothing like it);
- `extraction: end or forget not read` / `decision: end or forget found no target`: an expected
  DELETE with no END or FORGET candidate, or with one the decision matched to nothing;
- `extraction: claimless memory not derived`: an expected memory without a claim has no match;
- `time: historical` / `time: effective_from`: a matched memory's operation is wrong and its
  history or future start is not what was expected;
- `decision: EXPECTED as GOT`: the matched memory's operation or mode differs (`ADD as UPDATE/
  supersede`...), `decision: wrong target` when only the target does;
- `extra claim` / `extra claimless`: a derived memory matched to nothing expected.

Memory-type misses are counted apart (on matched memories whose op is right they cost nothing; a
claimless memory of the wrong type may be matched by type alone and so cost an op). The test half
is never read."""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.datasets.split_ingestion import batch  # noqa: E402
from bench.datasets.split_ingestion import folds as split_folds  # noqa: E402
from bench.ingestion_quality import (  # noqa: E402
    NFOLDS,
    Similarity,
    _at,
    _cached,
    claim_key,
    derived,
    load,
    match,
    plan,
    shipped_kinds,
    shipped_slots,
)
from graph.ingestion import slot_classifier  # noqa: E402
from graph.ingestion.extractor import KindOf  # noqa: E402
from graph.ingestion.model import END, FORGET  # noqa: E402
from graph.ingestion.slot_classifier import SlotOf  # noqa: E402

FLOOR = 0.5  # the classifier's floor as shipped


def _op(m: dict[str, Any]) -> str:
    return f"{m['op']}/{m['mode']}" if m["mode"] else m["op"]


def sources(row: dict[str, Any], got: list[dict[str, Any]], actions: set[str]) -> list[str]:
    """The source of each wrong decision of one line (empty when all are right)."""
    expected = row["expect"]["memories"]
    if not expected:
        return [f"nothing expected, {'claim' if claim_key(g) else 'claimless'} derived" for g in got[:1]]
    pairs = match(expected, got)
    out = []
    for e in expected:
        g = next((g for ee, g in pairs if ee is e), None)
        if g is not None and (g["op"], g["mode"], g["target"]) == (e["op"], e["mode"], e["target"]):
            continue
        key = claim_key(e)
        if g is None or (key is not None and claim_key(g) != key):
            if e["op"] == "DELETE":
                out.append("decision: end or forget found no target" if actions & {END, FORGET}
                           else "extraction: end or forget not read")
            elif key is None:
                out.append("extraction: claimless memory not derived")
            else:
                claims = [c for c in map(claim_key, got) if c is not None]
                if any(c[:2] == key[:2] for c in claims):
                    out.append("extraction: wrong value")
                elif any(c[2] == key[2] for c in claims):
                    out.append("extraction: wrong subject or slot")
                else:
                    out.append("extraction: no claim")
            continue
        if bool(e["historical"]) != bool(g["historical"]):
            out.append("time: historical")
        elif e["effective_from"] != g["effective_from"] and (e["effective_from"] or g["effective_from"]):
            out.append("time: effective_from")
        elif (e["op"], e["mode"]) != (g["op"], g["mode"]):
            out.append(f"decision: {_op(e)} as {_op(g)}")
        else:
            out.append("decision: wrong target")
    matched = {id(g) for _, g in pairs}
    out += [f"extra {'claim' if claim_key(g) else 'claimless'}" for g in got if id(g) not in matched]
    return out


def breakdown(rows: list[dict[str, Any]], similarity: Similarity, kind_of: Callable[[datetime], KindOf] | None,
              verbose: bool = False, slot_of: SlotOf | None = None) -> tuple[Counter[str], int, int, Counter[str]]:
    """(misses by source, wrong decisions, all decisions, memory-type misses on matched memories)."""
    misses: Counter[str] = Counter()
    types: Counter[str] = Counter()
    total = 0
    for row in rows:
        decisions, extraction = plan(row, _cached(similarity, row),
                                     kind_of=kind_of(_at(row["at"])) if kind_of else None, slot_of=slot_of)
        got = derived(decisions)
        expected = row["expect"]["memories"]
        pairs = match(expected, got)
        total += max(1, len(expected)) + (len([g for g in got if id(g) not in {id(x) for _, x in pairs}])
                                          if expected else 0)
        found = sources(row, got, {c.action for c in extraction.candidates})
        misses.update(found)
        if verbose and found:
            want = [(e["subject"], e["predicate"], e["value"], _op(e)) for e in expected]
            have = [(g["subject"], g["predicate"], g["value"], _op(g), g["memory_type"]) for g in got]
            print(f"{row['id']} {row['text']!r}\n    {found}\n    expected {want}\n    derived  {have}")
        types.update(f"{e['memory_type']} as {g['memory_type']}" for e, g in pairs
                     if e["memory_type"] != g["memory_type"])
    return misses, sum(misses.values()), total, types


def table(name: str, result: tuple[Counter[str], int, int, Counter[str]]) -> str:
    misses, wrong, total, types = result
    lines = [f"{name}: {wrong} wrong of {total} decisions ({100 * (total - wrong) / total:.1f}% right)", "",
             "| source | misses | share |", "| --- | ---: | ---: |"]
    lines += [f"| {s} | {n} | {100 * n / wrong:.0f}% |" for s, n in misses.most_common()]
    if types:
        lines += ["", "memory type on matched memories: " + ", ".join(f"{k} {n}" for k, n in types.most_common())]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, help="only this batch of the tune half (split_ingestion.BATCHES)")
    ap.add_argument("--folds", action="store_true", help="held-out folds, ablated, classifier fitted per fold")
    ap.add_argument("--verbose", action="store_true", help="each tuning line with a miss, and its sources")
    ap.add_argument("--no-slots", action="store_true", help="without the slot classifier (as before round 8)")
    args = ap.parse_args()
    rows = load("tune")
    similarity = Similarity(lexical=False)
    if not args.folds:
        chosen = [r for r in rows if args.batch is None or batch(r) == args.batch]
        name = "tune half" + (f", batch {args.batch}" if args.batch is not None else "")
        print(table(name, breakdown(chosen, similarity, shipped_kinds(similarity), args.verbose,
                                    None if args.no_slots else shipped_slots(similarity))))
        return
    from bench.ingestion_folds import Encoder, ablation, asking, asking_slots, fitted, fitted_slots
    fold_of = split_folds(rows, NFOLDS)
    encode = Encoder(similarity)
    ablated = ablation(rows, similarity)
    pooled: Counter[str] = Counter()
    types: Counter[str] = Counter()
    wrong = total = 0
    for f in range(NFOLDS):
        held = [r for r in rows if fold_of[r["id"]] == f]
        train = [r for r in rows if fold_of[r["id"]] != f]
        head, slots = fitted(train, encode), fitted_slots(train, encode)
        with ablated.without({i for i, r in enumerate(rows) if fold_of[r["id"]] == f}):
            m, w, t, ty = breakdown(held, similarity, asking(head, encode, FLOOR), args.verbose,
                                    None if args.no_slots else asking_slots(slots, encode, slot_classifier.FLOOR))
        pooled += m
        types += ty
        wrong += w
        total += t
    print(table(f"tune half, {NFOLDS} held-out folds, ablated + classifier (floor {FLOOR})",
                (pooled, wrong, total, types)))


if __name__ == "__main__":
    main()
