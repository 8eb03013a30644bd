"""How a context reads: memories grouped by type in a fixed order, best first within a group,
with validity windows and historical (superseded) memories marked. Pure."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

HEADER = "## Relevant Memory Context"
GROUPS = (("Preferences", ("preference",)), ("Goals", ("goal",)), ("Facts", ("fact",)), ("Events", ("event",)),
          ("Decisions", ("decision",)), ("Other", ("procedure", "action", "other")))
_KNOWN = {t for _, types in GROUPS for t in types}  # any other type lands in Other


@dataclass(frozen=True)
class ContextItem:
    id: str
    text: str
    memory_type: str
    value: float  # the rerank composite score: what the memory is worth to this query
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    historical: bool = False  # superseded: shown only when asked for, and marked


def _line(item: ContextItem) -> str:
    marks = []
    if item.valid_from or item.valid_until:
        start = item.valid_from.date().isoformat() if item.valid_from else "…"
        end = item.valid_until.date().isoformat() if item.valid_until else "now"
        marks.append(f"valid {start} to {end}")
    if item.historical:
        marks.append("historical, superseded")
    text = " ".join(item.text.split())  # one memory, one line
    return f"- {text}" + (f" ({'; '.join(marks)})" if marks else "")


def format_context(items: list[ContextItem]) -> str:
    """'' for no memories, so an empty context costs no tokens."""
    if not items:
        return ""
    parts = [HEADER]
    for title, types in GROUPS:
        members = sorted((i for i in items if (i.memory_type if i.memory_type in _KNOWN else "other") in types),
                         key=lambda i: (-i.value, i.id))
        if members:
            parts.append(f"### {title}")
            parts.extend(_line(i) for i in members)
    return "\n".join(parts) + "\n"
