"""When a search text says when: the times it names (graph/language/times.py finds and resolves
them, as a question means them: pointing to the past) as windows of UTC instants, with the relation
the question holds to each. Pure.

"What did Kate cook on 29 Dec 2023?" asks about memories said or happened (their `event_at`) in that
day; "before 01/10/2024" and "since 3 January 2024" about the time before or after it; "shortly
before 7 Jan 2024" about the week up to it. Only the relation is read here; the dates are
graph/language's."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from graph.language import find_times

# The words before a time that point before or after it (the rest, "on", "in", "during", none: in it).
BEFORE = frozenset({"before", "until", "till", "til", "by", "up to", "through", "thru"})
AFTER = frozenset({"after", "since", "from", "as of", "as from", "starting", "starting from", "starting on",
                   "starting in", "start on", "start in", "starts on", "starts in", "beginning on", "beginning in"})
_THROUGH = frozenset({"through", "thru", "up to"})  # the window itself still counts
_SHORTLY = re.compile(r"(?i)\b(?:shortly|just|right)\s+$")
SHORTLY = timedelta(days=7)  # "shortly before X": the week up to X


@dataclass(frozen=True)
class Window:
    """A span of time a search text names: [start, end), and how the question relates to it."""
    start: datetime
    end: datetime
    relation: str  # in | before | after
    text: str  # as written

    def holds(self, when: datetime) -> bool:
        """Whether an instant is where the question points: inside the span, or before or after it."""
        if self.relation == "before":
            return when < self.start
        if self.relation == "after":
            return when >= self.end
        return self.start <= when < self.end


def _instant(day: date) -> datetime:
    return datetime.combine(day, time(), UTC)


def windows(text: str, now: datetime) -> list[Window]:
    """The windows of time `text` names, in the order written; `now` is what relative phrases and
    dates without a year count from."""
    out = []
    for t in find_times(text, now, prefer="past"):
        start, end, rel = _instant(t.window.start), _instant(t.window.end), t.relation or ""
        relation = "before" if rel in BEFORE else "after" if rel in AFTER else "in"
        if rel in _THROUGH:
            start = end  # up to and through the window: before its end
        if relation != "in" and _SHORTLY.search(text[:t.start]):
            start, end = (start - SHORTLY, start) if relation == "before" else (end, end + SHORTLY)
            relation = "in"
        out.append(Window(start, end, relation, t.text))
    return out
