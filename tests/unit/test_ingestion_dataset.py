"""The labelled ingestion set (bench/datasets/ingestion_labelled.jsonl, conventions in
ingestion_labelled.md): its schema, vocabularies, references, dates, checksums, and that its tune and
test halves hold the same mix."""
from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date, datetime
from pathlib import Path

import pytest
from stdnum import iban, luhn
from stdnum.us import ssn

from bench.datasets import split_ingestion

DATA = Path(__file__).resolve().parents[2] / "bench" / "datasets" / "ingestion_labelled.jsonl"
LINES = [json.loads(x) for x in DATA.read_text().splitlines() if x.strip()]

MEMORY_TYPES = {"entity", "fact", "preference", "event", "goal", "procedure", "decision"}
MODES = {"ADD": {None}, "NOOP": {None}, "UPDATE": {"replace", "append", "supersede"}, "DELETE": {"soft", "hard"}}
SENSITIVITY = {"normal", "sensitive", "private"}
SECRET_KINDS = {"password", "card_number", "ssn", "iban", "api_key", "token", "private_key"}
CANONICAL = {"name", "nickname", "birthday", "age", "lives_in", "hometown", "nationality", "works_at", "job_title",
             "email", "phone_number", "likes", "dislikes", "diet", "allergy", "speaks", "studies_at", "car", "pet",
             "partner", "spouse", "mother", "father", "sister", "brother", "child", "friend", "boss", "colleague",
             "device", "phone"}
TAGS = {"first_person", "third_person", "chat_style", "plain", "update_wording", "correction", "deletion",
        "historical", "future", "expiry", "recurrence", "sensitive", "private", "secret", "hard_negative",
        "question", "hypothetical", "joke", "negation", "other_person", "coreference", "open_slot", "unruled",
        "noop", "append", "multi_claim", "edge_case"}
HARD_NEGATIVE_KINDS = {"question", "hypothetical", "joke", "negation", "other_person"}
LINE_KEYS = {"id", "split", "role", "text", "at", "context", "known", "expect", "tags"}
MEMORY_KEYS = {"memory_type", "subject", "predicate", "value", "op", "mode", "target", "historical", "sensitivity",
               "effective_from", "expires_at", "recurrence"}
RRULE_PART = re.compile(r"^(FREQ=(DAILY|WEEKLY|MONTHLY|YEARLY)|INTERVAL=\d+|BYDAY=(MO|TU|WE|TH|FR|SA|SU)"
                        r"(,(MO|TU|WE|TH|FR|SA|SU))*|BYMONTHDAY=-?\d+(,-?\d+)*|BYMONTH=\d+|BYHOUR=\d+|BYMINUTE=\d+"
                        r"|BYSETPOS=-?\d+)$")
PREDICATE = re.compile(r"^[a-z][a-z0-9_]*$")
MAJOR = 20  # a group this large must be split 45-55%


def moment(text: str) -> datetime:
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def ids(line: dict) -> str:
    return line["id"]


def test_the_set_is_large_enough_and_ids_are_unique():
    assert len(LINES) >= 320
    assert len({x["id"] for x in LINES}) == len(LINES)
    assert all(re.fullmatch(r"u\d{4}", x["id"]) for x in LINES)
    assert len({x["text"] for x in LINES}) == len(LINES), "a text is repeated"


@pytest.mark.parametrize("line", LINES, ids=ids)
def test_each_line_has_the_schema(line):
    assert set(line) == LINE_KEYS
    assert line["split"] in {"tune", "test"}
    assert line["role"] in {"user", "assistant"}
    assert isinstance(line["text"], str) and line["text"].strip()
    assert set(line["expect"]) == {"memories", "secrets"}
    for c in line["context"]:
        assert set(c) == {"role", "text", "at"} and c["role"] in {"user", "assistant"} and c["text"].strip()
        assert moment(c["at"]) <= moment(line["at"])
    for k in line["known"]:
        assert {"id", "text", "memory_type"} <= set(k) <= {"id", "text", "memory_type", "subject", "predicate",
                                                            "value"}
        assert k["memory_type"] in MEMORY_TYPES
        assert len({"subject", "predicate", "value"} & set(k)) in (0, 3)
    assert len({k["id"] for k in line["known"]}) == len(line["known"])
    for m in line["expect"]["memories"]:
        assert set(m) == MEMORY_KEYS


@pytest.mark.parametrize("line", LINES, ids=ids)
def test_each_memory_uses_the_vocabularies_and_refers_to_known_memories(line):
    known = {k["id"]: k for k in line["known"]}
    for m in line["expect"]["memories"]:
        assert m["memory_type"] in MEMORY_TYPES
        assert m["mode"] in MODES[m["op"]]
        assert m["sensitivity"] in SENSITIVITY
        assert isinstance(m["historical"], bool)
        claim = (m["subject"], m["predicate"], m["value"])
        assert all(x is None for x in claim) or all(isinstance(x, str) and x.strip() for x in claim)
        if m["predicate"] is not None:
            assert PREDICATE.match(m["predicate"]), m["predicate"]
        if m["op"] == "ADD":
            assert m["target"] is None
            continue
        assert m["target"] in known, f"target {m['target']} is not a known id"
        target = known[m["target"]]
        if m["op"] == "DELETE":
            assert m["predicate"] is None, "a DELETE carries no claim"
        elif m["predicate"] is not None and "predicate" in target:
            assert m["subject"] == target["subject"]
            # A marriage supersedes the partner with a spouse: the one change of predicate allowed.
            assert m["predicate"] == target["predicate"] or (target["predicate"], m["predicate"], m["mode"]) == (
                "partner", "spouse", "supersede")
            if m["op"] == "NOOP":
                assert m["value"].casefold() == target["value"].casefold()
            elif m["mode"] == "supersede" and m["predicate"] == target["predicate"]:
                assert m["value"].casefold() != target["value"].casefold()


@pytest.mark.parametrize("line", LINES, ids=ids)
def test_dates_parse_and_lie_after_the_message(line):
    sent = moment(line["at"]).date()
    for m in line["expect"]["memories"]:
        for field in ("effective_from", "expires_at"):
            if m[field] is not None:
                assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", m[field])
                assert date.fromisoformat(m[field]) > sent, f"{field} is not after the message"
        if m["effective_from"] and m["expires_at"]:
            assert m["effective_from"] <= m["expires_at"]
        if m["recurrence"] is not None:
            parts = m["recurrence"].split(";")
            assert parts[0].startswith("FREQ=")
            assert all(RRULE_PART.match(p) for p in parts), m["recurrence"]
            assert len({p.split("=")[0] for p in parts}) == len(parts)


@pytest.mark.parametrize("line", [x for x in LINES if x["expect"]["secrets"]], ids=ids)
def test_secrets_are_in_the_text_and_pass_their_checksums(line):
    for s in line["expect"]["secrets"]:
        assert set(s) == {"kind", "value"} and s["kind"] in SECRET_KINDS
        assert s["value"] in line["text"]
        digits = re.sub(r"[ -]", "", s["value"])
        if s["kind"] == "card_number":
            assert digits.isdigit() and 13 <= len(digits) <= 19 and luhn.is_valid(digits)
        if s["kind"] == "iban":
            assert iban.is_valid(s["value"])
        if s["kind"] == "ssn":
            assert ssn.is_valid(digits)
        for m in line["expect"]["memories"]:
            assert s["value"] not in (m["value"] or ""), "a secret is labelled as stored"


def test_every_secret_kind_appears_often_enough():
    kinds = Counter(s["kind"] for x in LINES for s in x["expect"]["secrets"])
    assert set(kinds) == SECRET_KINDS
    assert min(kinds.values()) >= 3, kinds
    assert sum(bool(x["expect"]["secrets"]) for x in LINES) >= 30


@pytest.mark.parametrize("line", LINES, ids=ids)
def test_tags_agree_with_the_labels(line):
    tags = set(line["tags"])
    memories = line["expect"]["memories"]
    assert tags <= TAGS, tags - TAGS
    assert len(tags & {"plain", "chat_style"}) == 1
    ops = {m["op"] for m in memories}
    modes = {m["mode"] for m in memories}
    predicates = {m["predicate"] for m in memories} - {None}
    assert ("noop" in tags) == ("NOOP" in ops)
    assert ("append" in tags) == ("append" in modes)
    assert ("secret" in tags) == bool(line["expect"]["secrets"])
    assert ("multi_claim" in tags) == (len([m for m in memories if m["predicate"]]) >= 2)
    assert ("historical" in tags) == any(m["historical"] for m in memories)
    assert ("future" in tags) == any(m["effective_from"] for m in memories)
    assert ("recurrence" in tags) == any(m["recurrence"] for m in memories)
    assert ("unruled" in tags) == any(p not in CANONICAL and not p.startswith("favorite_") for p in predicates)
    if "unruled" in tags:
        assert "open_slot" in tags
    if "DELETE" in ops:
        assert "deletion" in tags
    if "sensitive" in tags or "private" in tags:
        assert any(m["sensitivity"] != "normal" for m in memories) or not memories
    if any(m["expires_at"] for m in memories):
        assert "expiry" in tags
    if "hard_negative" in tags:
        assert not memories and not line["expect"]["secrets"]
        assert tags & (HARD_NEGATIVE_KINDS | {"chat_style", "plain"})
    elif not memories and not line["expect"]["secrets"]:
        assert "deletion" in tags, "a line that expects nothing is a hard negative or a refused deletion"
    if line["role"] == "assistant":
        assert not memories and "hard_negative" in tags
    if "coreference" in tags:
        assert line["context"]


def test_there_are_enough_unruled_lines_with_enough_distinct_things_in_both_halves():
    unruled = [x for x in LINES if "unruled" in x["tags"]]
    assert len(unruled) >= 40
    things = {m["predicate"] for x in unruled for m in x["expect"]["memories"]
              if m["predicate"] and m["predicate"] not in CANONICAL and not m["predicate"].startswith("favorite_")}
    assert len(things) >= 25, sorted(things)
    for half in ("tune", "test"):
        assert sum(x["split"] == half for x in unruled) >= 18


def test_the_operation_mix_is_as_the_issue_asks():
    ops = Counter(m["op"] for x in LINES for m in x["expect"]["memories"])
    lines = len(LINES)
    assert ops["ADD"] >= 0.30 * lines and ops["UPDATE"] >= 0.15 * lines
    assert ops["DELETE"] >= 0.06 * lines and ops["NOOP"] >= 0.08 * lines
    assert sum("hard_negative" in x["tags"] for x in LINES) >= 0.12 * lines


def test_the_halves_are_balanced_overall_and_per_group():
    # A batch written for the tuning half alone is all tune; the batches split between the halves are
    # balanced among themselves.
    tune_only = [x for x in LINES if split_ingestion.batch(x) in split_ingestion.TUNE_ONLY]
    assert all(x["split"] == "tune" for x in tune_only)
    split = [x for x in LINES if split_ingestion.batch(x) not in split_ingestion.TUNE_ONLY]
    test_share = sum(x["split"] == "test" for x in split) / len(split)
    assert 0.45 <= test_share <= 0.55
    per: dict[str, Counter[str]] = {}
    for x in split:
        for g in split_ingestion.groups(x):
            per.setdefault(g, Counter())[x["split"]] += 1
    for g, c in per.items():
        n = c["tune"] + c["test"]
        if n >= MAJOR:
            assert 0.45 <= c["test"] / n <= 0.55, f"{g}: {dict(c)}"
        else:
            assert abs(c["tune"] - c["test"]) <= 2, f"{g}: {dict(c)}"


def test_the_splits_are_what_the_split_script_assigns():
    halves = split_ingestion.assign(LINES)
    assert all(x["split"] == halves[x["id"]] for x in LINES)


def test_the_guide_counts_what_the_file_holds():
    guide = (DATA.parent / "ingestion_labelled.md").read_text()
    rows = dict(re.findall(r"^\| (.+?) \| (\d+ \| \d+) \| \d+ \|$", guide, flags=re.MULTILINE))
    halves = Counter(x["split"] for x in LINES)
    assert rows.pop("all lines") == f"{halves['tune']} | {halves['test']}"
    per: dict[str, Counter[str]] = {}
    for x in LINES:
        for g in split_ingestion.groups(x):
            kind, name = g.split(":")
            key = f"`{name}`" if kind == "tag" else f"{kind} {name}"
            per.setdefault(key, Counter())[x["split"]] += 1
    per.pop("op none")
    assert rows == {k: f"{c['tune']} | {c['test']}" for k, c in per.items()}
