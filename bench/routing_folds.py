"""How well the question router generalises to phrasings it was not written from, measured inside
the tuning half of the labelled questions (the test half stays unread).

    .venv/bin/python bench/routing_folds.py              # held-out fold accuracy of each variant
    .venv/bin/python bench/routing_folds.py --misses     # and the held-out misses, per variant
    .venv/bin/python bench/routing_folds.py --precision  # and the ablated rules' precision per intent they decide
    .venv/bin/python bench/routing_folds.py --record     # and write the table into docs/benchmarks.md
    .venv/bin/python bench/routing_folds.py --batch 1055-1134  # a batch of tuning lines held out

The tuning half is split into five folds by intent and phrasing family: lines that share most of
their words ("what happened last week" and "what happened last week, other than the work stuff")
form one family and go to one fold, and families are dealt to the folds so that each fold holds a
like share of every intent. Each fold is then routed as if it had never been seen:

- the rules, ablated: every alternative of every pattern the rules run (the markers, windows,
  exclusions and slot words, the question's masks and every other compiled pattern of graph/asking:
  each `|` branch, down to single words of a lexicon, and a pattern with no alternation as a whole)
  that matches only lines of the held-out fold among the tuning lines is switched off, so a phrase
  written for one line of that fold alone does not count for it. A branch matches a line when the
  line needs it, or needs its alternation and the branch alone still matches it (two branches for
  the same words both count). Alternatives that match lines of two folds or more, or none, stay: a
  writer with the other folds in hand would have had them; so do plain phrases the dataset's guide
  (questions_labelled.md, the specification every writer starts from) spells out, such as its list
  of exclusion markers. The code around the patterns is not ablated; a synonym any writer would add
  from the word next to it is, so the figure is rough in both directions;
- the intent classifier (graph/asking/intents.py) fitted on the other four folds' embeddings;
- both combined as the service combines them (graph/asking/blend.py).

Deterministic: the folds, the ablation and the fit depend on the tuning lines alone."""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import date
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ablation import Ablation, Holder, holders_in, tracing  # noqa: E402
from bench.record import record  # noqa: E402
from graph.asking import blend, intents, markers, rules, slots  # noqa: E402

DATA = ROOT / "bench" / "datasets" / "questions_labelled.jsonl"
FOLDS = 5


def load_tune() -> list[dict]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["split"] == "tune"]


# -- folds -----------------------------------------------------------------------------------------------------
def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z']+", text.lower()))


def families(rows: list[dict]) -> list[list[int]]:
    """Near-twins join one family: at least three words shared, covering 80% of the shorter line,
    and the longer line at most 2.5 times the shorter (so one short line is no twin of every long
    line that happens to contain its words)."""
    words = [_words(r["question"]) for r in rows]
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            a, b = words[i], words[j]
            shared, short, long_ = len(a & b), min(len(a), len(b)), max(len(a), len(b))
            if shared >= 3 and shared >= 0.8 * short and long_ <= 2.5 * short:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(rows)):
        groups[root(i)].append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def folds(rows: list[dict], k: int = FOLDS) -> list[int]:
    """Each line's fold: the largest families first, each to the fold holding the fewest lines of its
    intents so far (then the fewest lines, then the lowest number)."""
    fold = [0] * len(rows)
    per_intent = [Counter[str]() for _ in range(k)]
    sizes = [0] * k
    for family in families(rows):
        wanted = [rows[i]["intent"] for i in family]
        best = min(range(k), key=lambda f: (sum(per_intent[f][w] for w in wanted), sizes[f], f))
        for i in family:
            fold[i] = best
            per_intent[best][rows[i]["intent"]] += 1
            sizes[best] += 1
    return fold


# -- the ablation (bench/ablation.py) ----------------------------------------------------------------------
# The pattern holders of the rules: (module, attribute); each holds a tuple of compiled patterns,
# of markers, or of (name, pattern) pairs.
HOLDERS: tuple[tuple[ModuleType, str], ...] = (
    (markers, "MARKERS"), (slots, "_WINDOWS"), (slots, "_EXCLUDERS"), (slots, "_PREDICATE_PATTERNS"),
)
GUIDE = DATA.with_suffix(".md")
PREFIX = "graph.asking"


def holders() -> list[Holder]:
    """Every pattern the rules run: the markers, windows, exclusions and slot words, and each compiled
    pattern of the package besides (the question's masks, the clause and name patterns, ...)."""
    named = list(HOLDERS)
    return named + [h for h in holders_in(PREFIX) if all(getattr(*h) is not getattr(*n) for n in named)]


def ablation(questions: list[str]) -> Ablation:
    """Which branches of the router's patterns match which tuning questions: each pattern is traced while
    the rules route each question, so it is tried on the texts it really reads (the question, a
    clause, a phrase); a branch counts for a line when the line needs it, or when the line needs its
    alternation and the branch alone still matches it (two branches for the same words both count)."""
    found = holders()
    shown: list[dict[tuple[int, int], list[str]]] = []
    with tracing(found, PREFIX) as seen:
        for q in questions:
            for texts in seen.values():
                texts.clear()
            rules.route(q)
            shown.append({k: sorted(v) for k, v in seen.items()})
    return Ablation(found, len(questions), lambda h, it, line: shown[line].get((h, it), ()), GUIDE.read_text(),
                    PREFIX, strict=True)


# -- the variants ----------------------------------------------------------------------------------------------
def embed_all(questions: list[str]) -> np.ndarray:
    """Each question as the router embeds it for the classifier."""
    from graph.embedding.encoder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder().encode([blend.for_classifier(q) for q in questions])


def evaluate(rows: list[dict], embeddings: np.ndarray,
             decided: dict[int, str] | None = None) -> tuple[dict[str, dict[int, list[str]]], list[int], int]:
    """Each variant's predicted intent per line, every line predicted by the variant made without it.
    `decided`, when given, collects the intent the ablated rules decided for each held-out line they
    decided (the lines where no rule decided are left out)."""
    fold = folds(rows)
    questions = [r["question"] for r in rows]
    texts = [blend.for_classifier(q) for q in questions]  # what the classifier reads beside the embedding
    learned = [intents.label(r["intent"], r["also"]) for r in rows]  # what the classifier is fitted on
    ablated = ablation(questions)
    variants: dict[str, Callable[..., str]] = {}
    predicted: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    switched = 0
    for k in range(FOLDS):
        held = [i for i in range(len(rows)) if fold[i] == k]
        train = [i for i in range(len(rows)) if fold[i] != k]
        model = intents.fit(embeddings[train], [learned[i] for i in train], name="fold",
                            texts=[texts[i] for i in train])
        with ablated.without(set(held)) as off:
            switched += off
            for i in held:
                ruled = rules.route(questions[i])
                scores = model.scores(embeddings[i], texts[i])
                if decided is not None and not ruled.unsure:
                    decided[i] = ruled.intent
                variants = {
                    "rules (ablated)": lambda r=ruled: r.intent,
                    "classifier alone": lambda s=scores: max(s, key=s.get),
                    "rules + classifier": lambda r=ruled, s=scores, q=questions[i]: blend.combine(q, r, s).intent,
                }
                for name, pick in variants.items():
                    predicted[name][k].append(f"{i}:{pick()}")
        for i in held:
            predicted["rules (as written)"][k].append(f"{i}:{rules.route(questions[i]).intent}")
    return predicted, fold, switched


def held_out_batch(rows: list[dict], embeddings: np.ndarray, first: int, last: int) -> str:
    """The tuning lines q<first>..q<last> (a batch written at once) routed by the rules as written and
    the classifier fitted on the other tuning lines, combined as the service combines them: how the
    classifier fares on a batch it never saw (the rules may have been written from it)."""
    batch = [i for i, r in enumerate(rows) if first <= int(r["id"][1:]) <= last]
    if not batch:
        raise SystemExit(f"no tuning line numbered {first}-{last}")
    held = set(batch)
    train = [i for i in range(len(rows)) if i not in held]
    texts = [blend.for_classifier(r["question"]) for r in rows]
    model = intents.fit(embeddings[train], [intents.label(rows[i]["intent"], rows[i]["also"]) for i in train],
                        name="batch", texts=[texts[i] for i in train])
    right = sum(blend.combine(rows[i]["question"], rules.route(rows[i]["question"]),
                              model.scores(embeddings[i], texts[i])).intent == rows[i]["intent"] for i in batch)
    return (f"q{first}-q{last} held out ({len(batch)} lines; rules as written, classifier fitted on the other "
            f"{len(train)} tuning lines): {right}/{len(batch)} ({100 * right / len(batch):.1f}%)\n")


def report(rows: list[dict], predicted: dict[str, dict[int, list[str]]], fold: list[int], misses: bool) -> str:
    lines = ["| variant | " + " | ".join(f"fold {k + 1}" for k in range(FOLDS)) + " | all held out |",
             "|---|" + "---:|" * (FOLDS + 1)]
    notes = []
    for name, per_fold in predicted.items():
        cells, right_all = [], 0
        for k in range(FOLDS):
            pairs = [p.split(":", 1) for p in per_fold[k]]
            right = sum(rows[int(i)]["intent"] == got for i, got in pairs)
            right_all += right
            cells.append(f"{100 * right / len(pairs):.0f}%")
            if misses:
                notes += [f"{name}: fold {k + 1} {rows[int(i)]['id']} {rows[int(i)]['question']!r} "
                          f"labelled {rows[int(i)]['intent']}, routed {got}"
                          for i, got in pairs if rows[int(i)]["intent"] != got]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | **{100 * right_all / len(rows):.1f}%** "
                     f"({right_all}/{len(rows)}) |")
    return "\n".join(lines) + "\n" + ("\n" + "\n".join(notes) + "\n" if notes else "")


def precision(rows: list[dict], decided: dict[int, str]) -> str:
    """How often the ablated rules are right on the held-out lines they decide, per intent decided."""
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for i, intent in decided.items():
        per[intent][0] += rows[i]["intent"] == intent
        per[intent][1] += 1
    return "\n".join(["| the rules decide | right | of |", "|---|---:|---:|"] + [
        f"| {intent} | {100 * right / n:.0f}% | {right}/{n} |" for intent, (right, n) in sorted(per.items())]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list the held-out misses of each variant")
    parser.add_argument("--precision", action="store_true",
                        help="print the ablated rules' precision on the held-out lines they decide, per intent")
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    parser.add_argument("--batch", metavar="FIRST-LAST",
                        help="only route the tuning lines numbered FIRST-LAST, with the classifier fitted on the rest")
    args = parser.parse_args()
    rows = load_tune()
    embeddings = embed_all([r["question"] for r in rows])
    if args.batch:
        first, _, last = args.batch.partition("-")
        print(held_out_batch(rows, embeddings, int(first), int(last or first)))
        return
    decided: dict[int, str] = {}
    predicted, fold, switched = evaluate(rows, embeddings, decided)
    sizes = Counter(fold)
    head = (f"Run {date.today().isoformat()}, `bench/routing_folds.py`: the tuning half's {len(rows)} lines in "
            f"{FOLDS} folds by intent and phrasing family ({', '.join(str(sizes[k]) for k in range(FOLDS))} lines; "
            f"{sum(1 for f in families(rows) if len(f) > 1)} families of near-twins); each fold routed by the "
            f"rules without the {switched} pattern branches that match its lines alone (summed over the folds), "
            f"and by the classifier fitted on the other folds. Deterministic.\n\n")
    table = head + report(rows, predicted, fold, args.misses and not args.record)
    print(table)
    if args.precision:
        print(precision(rows, decided))
    if args.record:
        record("routing-folds", head + report(rows, predicted, fold, False))


if __name__ == "__main__":
    main()
