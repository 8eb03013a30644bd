"""The labelled routing questions (questions_labelled.jsonl, guide questions_labelled.md) and how their
lines are split: alternating within each intent, except the batches written for the tuning half
alone, whose every line is `tune` (so the test half stays the lines the alternation gave it). Pure."""
from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "questions_labelled.jsonl"

# Batches written wholly for the tuning half, as (first, last) id numbers: more phrasings for the
# router to be made from, without a test line more to tune against.
TUNE_ONLY: tuple[tuple[int, int], ...] = ((805, 954), (955, 1054), (1055, 1134))


def number(row: dict) -> int:
    return int(row["id"][1:])


def tune_only(row: dict) -> bool:
    """The line belongs to a batch written for the tuning half alone."""
    return any(first <= number(row) <= last for first, last in TUNE_ONLY)


def load(split: str = "all") -> list[dict]:
    """The labelled lines of one half (`tune`, `test`) or of both (`all`), in id order."""
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]
