"""The rules of a memory's conversation thread (graph/memories/threads.py)."""
from __future__ import annotations

import pytest

from graph.core.errors import InvalidInput
from graph.core.keys import thread_key
from graph.memories.model import NewMemory
from graph.memories.rules import check_new
from graph.memories.threads import MAX_THREAD_CHARS, appends, check_thread


def test_a_thread_is_none_or_a_non_blank_string_of_bounded_length():
    assert check_thread(None, "thread") is None
    assert check_thread("chat-1", "thread") == "chat-1"
    assert check_thread("x" * MAX_THREAD_CHARS, "thread") == "x" * MAX_THREAD_CHARS
    for bad in ("", "  ", "x" * (MAX_THREAD_CHARS + 1), 3, ["a"], "bad \ud800"):
        with pytest.raises(InvalidInput) as caught:
            check_thread(bad, "memories[2].thread")
        assert caught.value.field == "memories[2].thread"


def test_a_new_memory_is_checked_for_its_thread():
    with pytest.raises(InvalidInput) as caught:
        check_new(NewMemory(agent="a", text="hi", thread=""), "memories[0].", 100)
    assert caught.value.field == "memories[0].thread"
    check_new(NewMemory(agent="a", text="hi", thread="t"), "", 100)


def test_appends_group_a_writes_turns_by_thread_in_order_and_sort_by_key():
    rows = appends("agent", ["b", None, "a", "b", "a"], ["1", "2", "3", "4", "5"])
    assert rows == sorted([{"key": thread_key("agent", "b"), "id": "b", "members": ["1", "4"]},
                           {"key": thread_key("agent", "a"), "id": "a", "members": ["3", "5"]}],
                          key=lambda r: r["key"])
    assert appends("agent", [None, None], ["1", "2"]) == []
    # The same thread id of two tenants is two threads.
    assert thread_key("x", "t") != thread_key("y", "t")
