"""How well the secret detector (graph/memories/secrets.py) finds secrets and leaves ordinary text alone.

    .venv/bin/python bench/secrets_quality.py                 # the test half
    .venv/bin/python bench/secrets_quality.py --split tune    # the half the rules were tuned on
    .venv/bin/python bench/secrets_quality.py --record        # and write the table into docs/benchmarks.md

The labelled set is bench/datasets/secrets_labelled.jsonl: chat lines as people paste them, each
with its category and the secret's text (or none), split into a tuning and a test half by
alternating within each category. A secret counts as found when the findings cover every
character of it (so a redaction would remove it whole); the kind reported is not graded. The
false-positive rate is the share of ordinary lines (category none) with any finding. The cost is
the median time of `find_secrets` per line over every line of the half, repeated, and for one long
memory: the ordinary lines joined up to 32,000 characters (CREDENCE_MAX_TEXT_CHARS' default).

Splits: `tune` and `test` alternate within each category; `fresh` was written after the rules had
been tuned (on both halves, see docs/secrets.md) and was run once, not tuned on."""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.record import record  # noqa: E402
from graph.memories.secrets import Finding, find_secrets  # noqa: E402

DATA = ROOT / "bench" / "datasets" / "secrets_labelled.jsonl"
CATEGORIES = ("password", "card_number", "us_ssn", "iban", "api_key", "jwt", "private_key")


def load(split: str) -> list[dict]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]


def covered(text: str, secret: str, findings: list[Finding]) -> bool:
    start = text.index(secret)
    return all(any(f.start <= i < f.end for f in findings) for i in range(start, start + len(secret)))


def evaluate(rows: list[dict]) -> tuple[dict[str, tuple[int, int]], list[dict], list[dict], float]:
    recall: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    missed, false_positives = [], []
    for row in rows:
        findings = find_secrets(row["text"])
        if row["category"] == "none":
            recall["none"][1] += 1
            if findings:
                recall["none"][0] += 1
                false_positives.append({**row, "found": [f.kind for f in findings]})
            continue
        recall[row["category"]][1] += 1
        if covered(row["text"], row["secret"], findings):
            recall[row["category"]][0] += 1
        else:
            missed.append(row)
    texts = [r["text"] for r in rows]
    times = []
    for _ in range(20):
        began = time.perf_counter()
        for text in texts:
            find_secrets(text)
        times.append((time.perf_counter() - began) / len(texts))
    return {k: (v[0], v[1]) for k, v in recall.items()}, missed, false_positives, statistics.median(times)


def long_text_cost() -> float:
    """Seconds for one 32,000-character memory of ordinary text."""
    ordinary = [r["text"] for r in load("all") if r["category"] == "none"]
    text = ""
    while len(text) < 32_000:
        text += " ".join(ordinary) + " "
    text = text[:32_000]
    times = []
    for _ in range(5):
        began = time.perf_counter()
        find_secrets(text)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("test", "tune", "fresh", "all"), default="test")
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    rows = load(args.split)
    counts, missed, false_positives, per_text = evaluate(rows)
    lines = ["| category | found | recall |", "| --- | ---: | ---: |"]
    found = total = 0
    for category in CATEGORIES:
        hit, n = counts.get(category, (0, 0))
        found, total = found + hit, total + n
        lines.append(f"| {category} | {hit}/{n} | {hit / n:.1%} |" if n else f"| {category} | 0/0 | - |")
    lines.append(f"| **all secrets** | {found}/{total} | {found / total:.1%} |")
    fp, ordinary = counts.get("none", (0, 0))
    lines.append(f"| ordinary lines flagged (false positives) | {fp}/{ordinary} | {fp / ordinary:.1%} |")
    machine = (f"{date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}")
    mean_chars = statistics.mean(len(r["text"]) for r in rows)
    section = (f"### secrets_quality, {args.split} split\n\n{machine}\n\n{len(rows)} lines "
               f"({total} with a secret, {ordinary} ordinary, {mean_chars:.0f} characters on average). "
               f"`find_secrets` costs {per_text * 1e6:.0f} µs per line (median of 20 passes), and "
               f"{long_text_cost() * 1e3:.1f} ms for one 32,000-character memory of ordinary text.\n\n"
               + "\n".join(lines) + "\n")
    print(section)
    for row in missed:
        print(f"MISSED {row['category']}: {row['text']!r}")
    for row in false_positives:
        print(f"FALSE POSITIVE {row['found']}: {row['text']!r}")
    if args.record:
        record(f"secrets_quality-{args.split}", section)


if __name__ == "__main__":
    main()
