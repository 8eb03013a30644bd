"""The pure parts of export and import: how a body is numbered, how a mem0 item maps, what a line
may hold, and how the CLI cuts a file into batches."""
from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from credence_client.transfer import _batches
from graph.core.errors import InvalidInput
from graph.transfer import lines, mem0

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
MEMORY = {"kind": "memory", "id": "0b6e4a31-2f0b-4d6e-9c1e-6f1c3b2a7d4e", "text": "t",
          "created_at": "2026-01-01T00:00:00Z"}


def test_a_jsonl_body_is_numbered_from_first_line_and_blank_lines_count():
    body = b'{"kind": "end"}\n\n{"kind": "end", "n": 2}\n'
    assert [n for n, _ in lines.decode(body, 10)] == [10, 12]


def test_a_json_array_and_mem0_s_answer_number_their_items():
    assert [n for n, _ in lines.decode(b'[{"a": 1}, {"a": 2}]', 5)] == [5, 6]
    assert [item["memory"] for _, item in lines.decode(b'{"results": [{"id": "x", "memory": "m"}]}', 1)] == ["m"]


def test_bad_json_names_the_file_line():
    with pytest.raises(InvalidInput, match="line 8"):
        lines.decode(b'{"kind": "end"}\n{oops}\n', 7)


def test_mem0_ids_are_stable_and_per_tenant():
    item = {"id": "m-1", "memory": "likes tea", "metadata": {"memory_type": "procedural_memory"}, "user_id": "u"}
    memory, operation = mem0.to_lines(item, "a", "api", NOW)
    assert memory["id"] == mem0.to_lines(item, "a", "api", NOW)[0]["id"] != \
        mem0.to_lines(item, "b", "api", NOW)[0]["id"]
    assert memory["memory_type"] == "procedure" and memory["metadata"]["mem0"] == {"id": "m-1", "user_id": "u"}
    assert operation["memory_ids"] == [memory["id"]] and operation["op"] == "import"
    assert memory["created_at"] == "2026-11-23T12:00:00Z"  # no created_at: the import's time


def test_a_memory_line_gets_the_service_s_defaults_and_refuses_unknown_fields():
    batch = lines.parse([(1, MEMORY)], "a", max_text_chars=100, actor="api", now=NOW)
    [row] = batch.memories
    assert (row["props"]["status"], row["props"]["trust"], row["props"]["version"]) == ("active", 0.5, 1)
    assert row["sources"] == [{"type": "inference", "ref": "", "at": "2026-01-01T00:00:00Z"}]
    with pytest.raises(InvalidInput, match=r"line 3: memory\.colour"):
        lines.parse([(3, {**MEMORY, "colour": "red"})], "a", max_text_chars=100, actor="api", now=NOW)


def test_the_cli_cuts_batches_by_lines_bytes_and_blank_lines():
    items = [(1, {"a": 1}), (2, {"a": 2}), (3, None), (4, {"a": 4}), (5, {"a": 5}), (6, {"a": "x" * 50})]
    assert [(first, len(b)) for first, b in _batches(iter(items), 1, 2, 10_000)] == [(1, 2), (4, 2), (6, 1)]
    assert [first for first, _ in _batches(iter(items), 5, 10, 10_000)] == [5]
    big = len(json.dumps({"a": "x" * 50}))
    assert [(first, len(b)) for first, b in _batches(iter(items), 4, 10, big)] == [(4, 2), (6, 1)]
