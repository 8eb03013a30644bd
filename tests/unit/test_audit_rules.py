"""The audit trail's own rules, without a database: the query checks every input itself (a worker
calling graph/ gets InvalidInput naming the field, before any statement runs), every writer names
its op from the one vocabulary, and an audit line of an export carries `job_id` and a known op."""
from __future__ import annotations

import ast
import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graph.audit import MAX_AUDIT_PAGE, AuditService, Entry
from graph.core import cursor
from graph.core.errors import InvalidInput
from graph.core.vocab import AUDIT_OPS
from graph.transfer import lines

GRAPH = Path(__file__).resolve().parents[2] / "graph"
NOW = datetime(2026, 11, 25, 3, 0, tzinfo=UTC)
MEMORY_ID = "0b6e4a31-2f0b-4d6e-9c1e-6f1c3b2a7d4e"


class NoDatabase:
    """A runner a refused call must never reach."""
    async def read(self, name, **params):
        raise AssertionError(f"{name} ran although the input was refused")


def refused(call) -> str:
    with pytest.raises(InvalidInput) as caught:
        asyncio.run(call)
    return caught.value.field


@pytest.mark.parametrize("kwargs, field", [
    ({"agent": ""}, "agent"),
    ({"agent": "has space"}, "agent"),
    ({"ops": "update"}, "op"),
    ({"ops": []}, "op"),
    ({"ops": ["update", "gossip"]}, "op[1]"),
    ({"ops": [7]}, "op[0]"),
    ({"actor": ""}, "actor"),
    ({"actor": "a" * 201}, "actor"),
    ({"actor": 3}, "actor"),
    ({"memory_id": "not-a-uuid"}, "memory_id"),
    ({"memory_id": 42}, "memory_id"),
    ({"after": "2026-01-01"}, "after"),
    ({"before": 1_700_000_000}, "before"),
    ({"after": NOW, "before": NOW}, "before"),
    ({"limit": 0}, "limit"),
    ({"limit": MAX_AUDIT_PAGE + 1}, "limit"),
    ({"limit": True}, "limit"),
    ({"cursor": "not+a+cursor"}, "cursor"),
])
def test_the_audit_query_refuses_bad_input_by_name_before_the_database(kwargs, field):
    args = {"agent": "a-1", **kwargs}
    assert refused(AuditService(NoDatabase()).query(args.pop("agent"), **args)) == field  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs, field", [
    ({"agent": "no spaces please"}, "agent"),
    ({"memory_id": "nope"}, "memory_id"),
    ({"limit": 0}, "limit"),
    ({"cursor": "%%%"}, "cursor"),
])
def test_a_memory_s_trail_refuses_bad_input_by_name(kwargs, field):
    args = {"agent": "a-1", "memory_id": MEMORY_ID, **kwargs}
    assert refused(AuditService(NoDatabase()).trail(args.pop("agent"), args.pop("memory_id"), **args)) == field


def test_a_cursor_the_query_issues_is_one_it_takes():
    made = cursor.encode(NOW, MEMORY_ID)
    assert cursor.decode(made) == ("2026-11-25T03:00:00Z", MEMORY_ID)


def test_an_entry_must_name_an_op_of_the_vocabulary():
    assert Entry("update", "api").op == "update"
    with pytest.raises(ValueError, match="AUDIT_OPS"):
        Entry("upsert", "api")


def _op_literals(source: str, where: str) -> list[str]:
    """Calls of `record(...)`, `audit.record(...)` or `Entry(...)` in a module whose op is a string
    literal instead of a name from graph.core.vocab."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name == "Entry" and node.args:
            op = node.args[0]
        elif name == "record" and len(node.args) >= 3:
            op = node.args[2]
        else:
            continue
        if isinstance(op, ast.Constant):
            found.append(f"{where}:{node.lineno}: {op.value!r}")
    return found


def test_every_writer_names_its_op_from_the_vocabulary():
    modules = sorted(GRAPH.rglob("*.py"))
    assert any("audit.record(" in path.read_text() for path in modules)
    assert [hit for path in modules for hit in _op_literals(path.read_text(), str(path))] == []
    # The scan itself finds a literal op.
    assert len(_op_literals('Entry("store", "api")\naudit.record(tx, agent, "update", actor, [])\n', "x")) == 2


def test_an_operation_line_carries_job_id_and_names_a_known_op():
    line = {"kind": "operation", "id": MEMORY_ID, "op": "update", "actor": "api", "at": "2026-01-01T00:00:00Z",
            "job_id": "nightly-dedup-7"}
    [operation] = lines.parse([(1, line)], "a", max_text_chars=100, actor="api", now=NOW).operations
    assert operation["props"]["job_id"] == "nightly-dedup-7"
    [older] = lines.parse([(1, {k: v for k, v in line.items() if k != "job_id"})], "a", max_text_chars=100,
                          actor="api", now=NOW).operations
    assert older["props"]["job_id"] is None
    for op in ("upsert", None):
        with pytest.raises(InvalidInput, match=r"operation\.op"):
            lines.parse([(4, {**line, "op": op})], "a", max_text_chars=100, actor="api", now=NOW)
    with pytest.raises(InvalidInput, match=r"operation\.job_id"):
        lines.parse([(1, {**line, "job_id": 7})], "a", max_text_chars=100, actor="api", now=NOW)


def test_every_op_is_one_name():
    assert len(set(AUDIT_OPS)) == len(AUDIT_OPS)
