"""Conversation threads: the rules of a memory's thread, and the order its turns take. Pure.

A caller that stores the turns of a conversation names their thread (a session or chat id of its
own, `NewMemory.thread`). The write path gives each new turn its place in the thread (`turn`:
0, 1, ... in the order the turns arrive, a batch's in its order) and joins it to the turn before
with a NEXT edge, under a Thread node keyed by tenant and thread id (graph/core/keys.py:
thread_key) that a uniqueness constraint keeps single under concurrent writers. Hard delete joins
the turns either side of a deleted one, so the thread stays one chain."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graph.core.checks import check_short_text
from graph.core.keys import thread_key

MAX_THREAD_CHARS = 200


def check_thread(value: Any, field: str) -> str | None:
    """None, or a thread id: a non-blank string of at most MAX_THREAD_CHARS characters."""
    return None if value is None else check_short_text(value, field, MAX_THREAD_CHARS)


def appends(agent: str, threads: Sequence[str | None], ids: Sequence[str]) -> list[dict[str, Any]]:
    """memories/threads/append's rows for one tenant's new memories (their threads and ids, in the
    write's order): per thread, its key and its new turns in order. Sorted by key, so two writes
    that append to the same threads lock them in the same order."""
    members: dict[str, list[str]] = {}
    for thread, id_ in zip(threads, ids, strict=True):
        if thread is not None:
            members.setdefault(thread, []).append(id_)
    rows = [{"key": thread_key(agent, thread), "id": thread, "members": ids_} for thread, ids_ in members.items()]
    return sorted(rows, key=lambda r: r["key"])
