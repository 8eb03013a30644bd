"""Small pieces every handler uses to write its answer. Pure."""
from __future__ import annotations

from datetime import datetime

from graph.asking.model import Cited
from graph.memories.model import Memory


def day(at: datetime | None) -> str:
    return at.date().isoformat() if at else "…"


def one_line(memory: Memory) -> str:
    return " ".join(memory.text.split())


def cite(cited: dict[str, Cited], memory: Memory, why: str) -> None:
    """Each memory once, with the first reason it was cited for."""
    cited.setdefault(memory.id, Cited(memory, why))


def when(memory: Memory) -> datetime:
    return memory.event_at or memory.valid_from or memory.created_at
