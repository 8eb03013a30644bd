"""Ingestion on held-out folds of the tuning half: what the rules, and a classifier of claimless
kinds over the sentence embedding, carry over to lines nobody wrote a rule from or fitted on.

    .venv/bin/python bench/ingestion_folds.py            # the table
    .venv/bin/python bench/ingestion_folds.py --record   # and write it into docs/benchmarks.md

The tune half is cut into three folds balanced by group (bench/datasets/split_ingestion.py). Each
fold is measured three ways: with the rules as they stand (they were written from it: optimistic);
with every pattern branch that matches lines of that fold alone switched off (bench/ablation.py:
the rules as a writer who never read the fold would have them, roughly); and the same ablated rules
with a classifier fitted on the other two folds only (graph/language/classifier.py over the
service's embedding of the sentence as written: what kind of memory a claimless sentence is, or
none), asked through the extractor's `kind_of` where no wording rule gives a claimless sentence a
kind, at each probability floor tried. Then the same with the classifier of kinds at its shipped
floor and a slot classifier fitted on the other two folds too (graph/ingestion/slot_classifier.py:
the slot of a stating sentence no rule read a claim from, the value from the parse), at each floor
tried, and, as the candidate without a classifier, every such sentence read as an open slot.

    .venv/bin/python bench/ingestion_folds.py --batch 5  # one batch of the tune half held out instead

--batch holds out a batch of tuning lines written after the rules: the classifiers are fitted on
the other tuning lines and measured on it, the rules as they stand (they were not written from it).
The test half is never read. Deterministic: the folds, the ablation and the fit depend on the
tuning lines alone."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ablation import Ablation, holders_in, tracing  # noqa: E402
from bench.datasets.split_ingestion import batch  # noqa: E402
from bench.datasets.split_ingestion import folds as split_folds  # noqa: E402
from bench.ingestion_quality import NFOLDS, Similarity, _cached, evaluate, load, pct, plan  # noqa: E402
from bench.record import record  # noqa: E402
from graph.ingestion import kind_classifier, slot_classifier  # noqa: E402
from graph.ingestion.decide import is_open  # noqa: E402
from graph.ingestion.extractor import KindOf  # noqa: E402
from graph.ingestion.proposed import OPEN  # noqa: E402
from graph.ingestion.slot_classifier import SlotOf  # noqa: E402
from graph.language import classifier  # noqa: E402
from graph.language.classifier import Classifier  # noqa: E402

GUIDE = ROOT / "bench" / "datasets" / "ingestion_labelled.md"
PREFIX = "graph.ingestion"
FLOORS = (0.4, 0.5, 0.6, 0.7)
FLOOR = kind_classifier.FLOOR  # the classifier of kinds as shipped, beside the slot classifier
NONE = kind_classifier.NONE
SLOT_NONE = slot_classifier.NONE
SLOT_FLOORS = (0.3, 0.4, 0.5, 0.6)
SLOT_C = 128.0
# The two together: the slot classifier's slot where it is sure, an open slot where it is unsure of
# any label (`none` included).
ELSE_OPEN_ROW = "the same + slots (floor {}), an open slot where no label reaches the floor"
# Another candidate, no classifier: every stating sentence no rule read is an open slot (its owned
# thing's, or a value only whose slot the decision finds among the known memories).
VALUE_ONLY_ROW = "the same + classifier (floor {}) + every unread sentence an open slot (no slot classifier)"


def _open(sentence: str) -> str:
    return OPEN


def label_of(row: dict[str, Any]) -> str | None:
    """What the head learns from a tuning line: the kind of its claimless memory, `none` for a
    user's line that expects nothing, else nothing (a line with claims or only deletions says
    nothing about the kind of a claimless sentence)."""
    if row["role"] != "user" or row["expect"]["secrets"]:
        return None
    memories = row["expect"]["memories"]
    claimless = [m for m in memories if m["predicate"] is None and m["op"] != "DELETE"]
    if claimless:
        kind = claimless[0]["memory_type"]
        return None if kind == "entity" else kind  # a relationship change: its own rule
    return NONE if not memories else None


def examples(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    # The text as written: masking names, times and numbers (as the question router does) lost
    # about half of the right kinds in a trial on these folds; topic words ("funeral", "diagnosed") count.
    return [(r["text"], label) for r in rows if (label := label_of(r)) is not None]


class Encoder:
    """The service's embedding model over masked texts, cached."""

    def __init__(self, similarity: Similarity) -> None:
        self.model, self.cache = similarity.model, {}
        assert self.model is not None

    def __call__(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            self.cache.update(zip(missing, self.model.encode(missing), strict=True))
        return np.asarray([self.cache[t] for t in texts])


def fitted(rows: list[dict[str, Any]], encode: Encoder) -> Classifier:
    pairs = examples(rows)
    return classifier.fit(encode([t for t, _ in pairs]), [label for _, label in pairs], encode.model.name)


def slot_label_of(row: dict[str, Any]) -> str | None:
    """What the slot classifier learns from a tuning line: the one slot its claims fill (a canonical
    predicate, or `open` for an open slot), `none` for a user's line that expects no claim, else
    nothing (claims in several slots, a favourite, or a secret in the text)."""
    if row["role"] != "user" or row["expect"]["secrets"]:
        return None
    claims = [m["predicate"] for m in row["expect"]["memories"] if m["predicate"] and m["op"] != "DELETE"]
    if not claims:
        return SLOT_NONE
    slots = {OPEN if is_open(p) else p for p in claims}
    return slots.pop() if len(slots) == 1 and not any(p.startswith("favorite_") for p in claims) else None


def slot_examples(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["text"], label) for r in rows if (label := slot_label_of(r)) is not None]


def fitted_slots(rows: list[dict[str, Any]], encode: Encoder) -> Classifier:
    pairs = slot_examples(rows)
    # Weaker regularisation and labels weighed evenly: `none` is a third of the rows, and most slots
    # have a handful (chosen on the tune half's batch 5 held out: more right proposals, as few wrong).
    return classifier.fit(encode([t for t, _ in pairs]), [label for _, label in pairs], encode.model.name,
                          c=SLOT_C, balanced=True)


def asking_slots(head: Classifier, encode: Encoder, floor: float, otherwise: str | None = None) -> SlotOf:
    return slot_classifier.slot_opinion(head, lambda s: encode([s])[0], floor, otherwise)


def asking(head: Classifier, encode: Encoder, floor: float) -> Callable[[datetime], KindOf]:
    """The rules' kind where they found one, else the classifier's when it is at least `floor`
    probable and not none (graph/ingestion/kind_classifier.py, as the service asks it)."""
    def at(when: datetime) -> KindOf:
        return kind_classifier.second_opinion(head, lambda s: encode([s])[0], floor)
    return at


def ablation(rows: list[dict[str, Any]], similarity: Similarity) -> Ablation:
    holders = holders_in(PREFIX)
    shown: list[dict[tuple[int, int], set[str]]] = []
    with tracing(holders, PREFIX) as seen:
        for row in rows:
            for texts in seen.values():
                texts.clear()
            plan(row, _cached(similarity, row))
            shown.append({k: set(v) for k, v in seen.items()})
    return Ablation(holders, len(rows), lambda h, it, i: sorted(shown[i].get((h, it), ())),
                    GUIDE.read_text(), PREFIX)


def row_of(name: str, r: dict[str, Any]) -> str:
    c = r["claims"]
    return (f"| {name} | {pct(*r['ops'])} | {pct(c['matched'], c['derived'])} | {pct(c['matched'], c['expected'])} |")


def total(results: list[dict[str, Any]]) -> dict[str, Any]:
    ops = [sum(r["ops"][0] for r in results), sum(r["ops"][1] for r in results)]
    claims = {k: sum(r["claims"][k] for r in results) for k in ("matched", "derived", "expected")}
    return {"ops": ops, "claims": claims}


def held_batch(rows: list[dict[str, Any]], held_out: int) -> str:
    """A batch of tuning lines written after the rules (and before this round's mechanisms), held out:
    the classifiers fitted on the other tuning lines, measured on the batch."""
    held = [r for r in rows if batch(r) == held_out]
    train = [r for r in rows if batch(r) != held_out]
    similarity = Similarity(lexical=False)
    encode = Encoder(similarity)
    head, slots = fitted(train, encode), fitted_slots(train, encode)
    named = {"rules alone": evaluate(held, similarity),
             f"rules + classifier (floor {FLOOR})": evaluate(held, similarity, kind_of=asking(head, encode, FLOOR))}
    named[VALUE_ONLY_ROW.format(FLOOR)] = evaluate(held, similarity, kind_of=asking(head, encode, FLOOR),
                                                   slot_of=_open)
    for floor in SLOT_FLOORS:
        named[f"the same + slots (floor {floor})"] = evaluate(
            held, similarity, kind_of=asking(head, encode, FLOOR), slot_of=asking_slots(slots, encode, floor))
    for floor in SLOT_FLOORS:
        named[ELSE_OPEN_ROW.format(floor)] = evaluate(
            held, similarity, kind_of=asking(head, encode, FLOOR), slot_of=asking_slots(slots, encode, floor, OPEN))
    lines = [f"Tune batch {held_out} held out ({len(held)} lines; classifiers fitted on the other {len(train)}):",
             "", "| rules | operation accuracy | claim precision | claim recall |", "| --- | ---: | ---: | ---: |"]
    lines += [row_of(name, r) for name, r in named.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--batch", type=int, help="hold out this batch of the tune half (split_ingestion.BATCHES) instead: "
                    "the classifiers fitted on the rest, the rules as they stand")
    args = ap.parse_args()
    rows = load("tune")
    if args.batch is not None:
        table = held_batch(rows, args.batch)
        print(table)
        if args.record:
            record(f"ingestion-batch-{args.batch}", table)
        return
    fold_of = split_folds(rows, NFOLDS)
    similarity = Similarity(lexical=False)
    encode = Encoder(similarity)
    ablated = ablation(rows, similarity)
    kinds: dict[str, list[dict[str, Any]]] = {"rules as written (read every fold)": [],
                                              "rules, fold's own branches off": []}
    kinds.update({f"the same + classifier (floor {f})": [] for f in FLOORS})
    kinds[VALUE_ONLY_ROW.format(FLOOR)] = []
    kinds.update({f"the same + classifier (floor {FLOOR}) + slots (floor {f})": [] for f in SLOT_FLOORS})
    kinds.update({ELSE_OPEN_ROW.format(f): [] for f in SLOT_FLOORS})
    switched = []
    for f in range(NFOLDS):
        held = [r for r in rows if fold_of[r["id"]] == f]
        train = [r for r in rows if fold_of[r["id"]] != f]
        kinds["rules as written (read every fold)"].append(evaluate(held, similarity))
        head = fitted(train, encode)
        slots = fitted_slots(train, encode)
        with ablated.without({i for i, r in enumerate(rows) if fold_of[r["id"]] == f}) as off:
            switched.append(off)
            kinds["rules, fold's own branches off"].append(evaluate(held, similarity))
            for floor in FLOORS:
                kinds[f"the same + classifier (floor {floor})"].append(
                    evaluate(held, similarity, kind_of=asking(head, encode, floor)))
            kinds[VALUE_ONLY_ROW.format(FLOOR)].append(
                evaluate(held, similarity, kind_of=asking(head, encode, FLOOR), slot_of=_open))
            for floor in SLOT_FLOORS:
                kinds[f"the same + classifier (floor {FLOOR}) + slots (floor {floor})"].append(
                    evaluate(held, similarity, kind_of=asking(head, encode, FLOOR),
                             slot_of=asking_slots(slots, encode, floor)))
                kinds[ELSE_OPEN_ROW.format(floor)].append(
                    evaluate(held, similarity, kind_of=asking(head, encode, FLOOR),
                             slot_of=asking_slots(slots, encode, floor, OPEN)))
    sizes = ", ".join(str(sum(fold_of[r["id"]] == f for r in rows)) for f in range(NFOLDS))
    lines = [(f"Tune half, {NFOLDS} folds ({sizes} lines); branches switched off per fold: "
              f"{', '.join(map(str, switched))}. Pooled over the folds:"), "",
             "| rules | operation accuracy | claim precision | claim recall |", "| --- | ---: | ---: | ---: |"]
    lines += [row_of(name, total(results)) for name, results in kinds.items()]
    table = "\n".join(lines) + "\n"
    print(table)
    if args.record:
        record("ingestion-folds", table)


if __name__ == "__main__":
    main()
