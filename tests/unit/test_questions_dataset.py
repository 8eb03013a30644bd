"""The labelled routing questions (bench/datasets/questions_labelled.jsonl) keep the schema, the
vocabularies and the rules of their guide (questions_labelled.md), and their halves stay comparable:
the router is tuned on one and measured on the other."""
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from bench.datasets.questions import tune_only

DATASETS = Path(__file__).resolve().parents[2] / "bench" / "datasets"
DATA = DATASETS / "questions_labelled.jsonl"
GUIDE = DATASETS / "questions_labelled.md"

INTENTS = {"about_me", "entity", "relationship", "temporal", "historical", "negation", "sentiment",
           "decision", "goal", "search"}
TAGS = {"first_person", "third_person", "chat_style", "plain", "ambiguous", "adversarial",
        "multi_intent", "polite", "long"}
SLOTS = {"subject", "predicate", "entity", "topic", "exclude", "window"}
FIELDS = {"id", "split", "question", "intent", "also", "slots", "tags"}


def rows() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]


ROWS = rows()
# The lines the alternation splits; a batch written for the tuning half alone is all `tune`.
ALTERNATED = [r for r in ROWS if not tune_only(r)]


def predicates() -> set[str]:
    """The canonical predicates the guide lists, so the list and the data cannot drift apart."""
    line = next(p for p in GUIDE.read_text(encoding="utf-8").split("\n\n") if p.startswith("Predicates:"))
    return set(re.findall(r"`([a-z_]+)`", line))


def test_the_set_is_large_enough_and_mostly_plain_search():
    counts = Counter(r["intent"] for r in ROWS)
    assert len(ROWS) >= 240
    assert counts["search"] >= 0.25 * len(ROWS)
    assert {i: n for i, n in counts.items() if i != "search" and n < 15} == {}
    assert set(counts) == INTENTS


def test_ids_are_unique_and_in_order():
    ids = [r["id"] for r in ROWS]
    assert all(re.fullmatch(r"q\d{4}", i) for i in ids)
    assert ids == [f"q{n:04d}" for n in range(1, len(ROWS) + 1)]


def test_questions_are_unique():
    counts = Counter(r["question"].casefold() for r in ROWS)
    assert [q for q, n in counts.items() if n > 1] == []


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_each_line_keeps_the_schema(row):
    assert set(row) == FIELDS
    assert row["split"] in {"tune", "test"}
    assert isinstance(row["question"], str) and row["question"].strip() == row["question"] != ""
    assert row["intent"] in INTENTS
    also = row["also"]
    assert set(also) <= INTENTS and row["intent"] not in also and len(set(also)) == len(also)
    assert set(row["slots"]) == SLOTS
    assert set(row["tags"]) <= TAGS and len(set(row["tags"])) == len(row["tags"])


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_each_lines_slots_follow_the_guide(row):
    slots, text = row["slots"], row["question"]
    carried = {row["intent"], *row["also"]}
    assert slots["subject"] in {"user", "entity", None}
    assert slots["predicate"] is None or (slots["predicate"] in predicates() and "historical" in carried)
    entity = slots["entity"]
    names = [entity] if isinstance(entity, str) else entity or []
    assert entity is None or isinstance(entity, str) or (len(entity) >= 2 and len(set(entity)) == len(entity))
    assert all(isinstance(n, str) and n in text for n in names)
    assert slots["topic"] is None or slots["topic"] in text
    assert slots["window"] is None or slots["window"] in text
    assert all(isinstance(e, str) and e in text for e in slots["exclude"])
    # exclusions make a negation; a window on another intent brings the temporal filter with it
    assert bool(slots["exclude"]) == (row["intent"] == "negation")
    if row["intent"] == "temporal":
        assert slots["window"]
    elif slots["window"]:
        assert "temporal" in row["also"]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_each_lines_tags_agree_with_it(row):
    tags = set(row["tags"])
    assert len(tags & {"plain", "chat_style"}) == 1
    assert len(tags & {"first_person", "third_person"}) <= 1
    assert ("multi_intent" in tags) == bool(row["also"])
    assert ("long" in tags) == (len(row["question"].split()) >= 20)


def test_splits_alternate_within_each_intent():
    seen: dict[str, int] = Counter()
    for row in ALTERNATED:
        assert row["split"] == ("tune" if seen[row["intent"]] % 2 == 0 else "test"), row["id"]
        seen[row["intent"]] += 1


@pytest.mark.parametrize("intent", sorted(INTENTS))
def test_each_intent_is_split_evenly(intent):
    splits = [r["split"] for r in ALTERNATED if r["intent"] == intent]
    assert 0.45 <= splits.count("test") / len(splits) <= 0.55


@pytest.mark.parametrize("tag", ["adversarial", "ambiguous", "multi_intent", "chat_style", "polite"])
def test_the_hard_lines_are_shared_between_the_halves(tag):
    tagged = [r["split"] for r in ALTERNATED if tag in r["tags"]]
    assert 0.4 <= tagged.count("test") / len(tagged) <= 0.6


def test_a_tuning_batch_adds_no_test_line():
    extra = [r for r in ROWS if tune_only(r)]
    assert extra and all(r["split"] == "tune" for r in extra)
    # the test half is what the alternation gave it before the tuning batches: 401 lines
    assert sum(r["split"] == "test" for r in ROWS) == 401
