"""Assigns the tune and test halves of bench/datasets/ingestion_labelled.jsonl, deterministically.

Each line belongs to several groups: its tags, the operations it expects (op:ADD...), its secret kinds
and, for a line that expects nothing, op:none. Lines are visited rarest group first (then by id), and
each goes to the half that leaves its groups (each weighed by one over its size), then the whole set,
most even; a tie alternates. So every
group is split as evenly as its size allows and both halves hold the same mix. Each batch of lines
(BATCHES: the first ORIGINAL lines as first written, then each batch added later) is split among
itself the same way, so adding lines never moves an existing one to the other half. A batch in
TUNE_ONLY is not split: every line of it is a tuning line (lines written to fit rules or a
classifier on; the test half stays as it was).

    .venv/bin/python bench/datasets/split_ingestion.py [--check]

--check only reports the balance and exits 1 when the file's splits differ from what this assigns."""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parent / "ingestion_labelled.jsonl"
HALVES = ("tune", "test")
ORIGINAL = 395  # u0001..u0395: the set as first written; the lines after them were added later
# The last id of each batch but the open last one: u0001-u0395, u0396-u0555, u0556-u0678, u0679 (a
# line that evens out a group, historical, the per-batch split left uneven), u0680-u0808, u0809-u0947,
# u0948-u1009, u1010-u1072, u1073-u1137, then u1138 onwards.
BATCHES = (ORIGINAL, 555, 678, 679, 808, 947, 1009, 1072, 1137)
# The batches not split: u0809-u0947, u0948-u1009, u1010-u1072, u1073-u1137 and u1138 onwards, written
# for the tuning half alone.
TUNE_ONLY = frozenset({5, 6, 7, 8, 9})


def added(line: dict) -> bool:
    """Whether the line was added after the first set."""
    return int(line["id"][1:]) > ORIGINAL


def batch(line: dict) -> int:
    """Which batch the line was written in: 0 for the first set, 1, 2... for each added later."""
    number = int(line["id"][1:])
    return sum(number > last for last in BATCHES)


def groups(line: dict) -> set[str]:
    """The groups a line is balanced within."""
    out = {f"tag:{t}" for t in line["tags"]}
    memories = line["expect"]["memories"]
    out |= {f"op:{m['op']}" for m in memories} or {"op:none"}
    out |= {f"secret:{s['kind']}" for s in line["expect"]["secrets"]}
    return out


def assign(lines: list[dict]) -> dict[str, str]:
    """id -> half: each batch of lines balanced on its own; a TUNE_ONLY batch all tune."""
    out: dict[str, str] = {}
    for b in sorted({batch(x) for x in lines}):
        mine = [x for x in lines if batch(x) == b]
        out.update({x["id"]: "tune" for x in mine} if b in TUNE_ONLY else _balanced(mine))
    return out


def _balanced(lines: list[dict]) -> dict[str, str]:
    """id -> half, each group of `lines` split as evenly as its size allows."""
    sizes = Counter(g for line in lines for g in groups(line))
    order = sorted(lines, key=lambda line: (min(sizes[g] for g in groups(line)), line["id"]))
    counts: dict[str, Counter[str]] = {}
    total: Counter[str] = Counter()
    out: dict[str, str] = {}
    for i, line in enumerate(order):
        mine = groups(line)

        def cost(half: str, mine: set[str] = mine) -> tuple[float, int]:
            other = HALVES[1 - HALVES.index(half)]
            # A rare group's imbalance weighs more: one line is a larger share of it.
            spread = sum(abs(counts.get(g, Counter())[half] + 1 - counts.get(g, Counter())[other]) / sizes[g]
                         for g in mine)
            return spread, abs(total[half] + 1 - total[other])

        tune, test = cost("tune"), cost("test")
        half = "tune" if tune < test else "test" if test < tune else HALVES[i % 2]
        out[line["id"]] = half
        total[half] += 1
        for g in mine:
            counts.setdefault(g, Counter())[half] += 1
    return out


def folds(lines: list[dict], n: int) -> dict[str, int]:
    """id -> fold (0..n-1): the lines (of one half) in n folds balanced by group as the halves are, so
    rules written from some folds can be measured on the others (what carries over to new lines)."""
    sizes = Counter(g for line in lines for g in groups(line))
    order = sorted(lines, key=lambda line: (min(sizes[g] for g in groups(line)), line["id"]))
    counts: dict[str, Counter[int]] = {}
    total: Counter[int] = Counter()
    out: dict[str, int] = {}
    for i, line in enumerate(order):
        mine = groups(line)

        def cost(fold: int, mine: set[str] = mine, i: int = i) -> tuple[float, int, int]:
            spread = sum((counts.get(g, Counter())[fold] + 1 - min(counts.get(g, Counter())[f] for f in range(n)))
                         / sizes[g] for g in mine)
            return spread, total[fold], (fold - i) % n

        fold = min(range(n), key=cost)
        out[line["id"]] = fold
        total[fold] += 1
        for g in mine:
            counts.setdefault(g, Counter())[fold] += 1
    return out


def report(lines: list[dict]) -> str:
    per: dict[str, Counter[str]] = {}
    for line in lines:
        for g in sorted(groups(line)):
            per.setdefault(g, Counter())[line["split"]] += 1
    rows = [f"{'group':<24} {'tune':>5} {'test':>5}",
            f"{'all':<24} {sum(x['split'] == 'tune' for x in lines):>5} {sum(x['split'] == 'test' for x in lines):>5}"]
    rows += [f"{g:<24} {c['tune']:>5} {c['test']:>5}" for g, c in sorted(per.items())]
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report only; fail when the splits differ")
    args = parser.parse_args()
    lines = [json.loads(x) for x in DATA.read_text().splitlines() if x.strip()]
    halves = assign(lines)
    differ = [x["id"] for x in lines if x["split"] != halves[x["id"]]]
    if args.check:
        print(report(lines))
        if differ:
            print(f"{len(differ)} lines differ from the assignment: {differ[:10]}", file=sys.stderr)
        return 1 if differ else 0
    for line in lines:
        line["split"] = halves[line["id"]]
    DATA.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    print(report(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
