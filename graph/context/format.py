"""How a context reads: one section per memory type, in a fixed order of priority (preferences, goals,
facts, people and things, events, decisions, other), best first within a section, with validity
windows marked; memories of the past (superseded, or stored as how things were) come last, in their
own section, and only when the request lets them in. Pure."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

HEADER = "## Relevant Memory Context"
GROUPS = (("Preferences", ("preference",)), ("Goals", ("goal",)), ("Facts", ("fact",)),
          ("People and things", ("entity",)), ("Events", ("event",)), ("Decisions", ("decision",)),
          ("Other", ("procedure", "action", "other")))
HISTORY = "Historical"  # the last section: what was so, not what is
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
    past: bool = False  # stored as how things were ("I used to ..."): shown only for a question about the past

    @property
    def section(self) -> str:
        if self.historical or self.past:
            return HISTORY
        kind = self.memory_type if self.memory_type in _KNOWN else "other"
        return next(title for title, types in GROUPS if kind in types)


def _line(item: ContextItem) -> str:
    marks = []
    if item.valid_from or item.valid_until:
        start = item.valid_from.date().isoformat() if item.valid_from else "…"
        end = item.valid_until.date().isoformat() if item.valid_until else "now"
        marks.append(f"valid {start} to {end}")
    if item.historical:
        marks.append("historical, superseded")
    elif item.past:
        marks.append("historical")
    text = " ".join(item.text.split())  # one memory, one line
    return f"- {text}" + (f" ({'; '.join(marks)})" if marks else "")


def format_context(items: list[ContextItem]) -> str:
    """'' for no memories, so an empty context costs no tokens."""
    if not items:
        return ""
    parts = [HEADER]
    for title in [*(t for t, _ in GROUPS), HISTORY]:
        members = sorted((i for i in items if i.section == title), key=lambda i: (-i.value, i.id))
        if members:
            parts.append(f"### {title}")
            parts.extend(_line(i) for i in members)
    return "\n".join(parts) + "\n"
