"""A window phrase ("last week", "in March", "last summer", "since Christmas", "before the move") as
an interval [start, end) at an instant `now`. The period a phrase names ("March", "last week",
"last summer", "Christmas", "two weeks ago") is read by graph/language/times.py's `period_of`, the
one reader of time expressions; this module adds what a question does with it: vague spans
("lately", "over the years", "the past two weeks", back from now), and what a preposition does to a
period ("since X": from X's start to now; "before X": up to X's start). A phrase that names an
event instead of a date ("before the move", "since I got the raise") resolves to an anchor: the
caller finds when that event was and calls `around_anchor`. Pure: no I/O, `now` is given.

"recently" and "lately" are the last 30 days."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from graph.language.times import NUMBERS, period_of, unit_delta

RECENT_DAYS = 30
_UNITS = {"day": "day", "week": "week", "weekend": "week", "month": "month", "year": "year", "decade": "year"}


@dataclass(frozen=True)
class Window:
    phrase: str
    start: datetime | None  # None: open (since ever)
    end: datetime | None  # exclusive; None: open (until now and on)
    anchor: str | None = None  # an event to find first ("the move"): start/end are then unset
    relation: str | None = None  # before | after | since | during: what the window is to the anchor


def _floor(day: datetime) -> datetime:
    return day.replace(hour=0, minute=0, second=0, microsecond=0)


def _date(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The whole period a phrase names, from midnight (UTC) of its first day to that of the day after."""
    found = period_of(text, now)
    if found is None:
        return None
    return datetime.combine(found.start, time(), UTC), datetime.combine(found.end, time(), UTC)


def resolve(phrase: str | None, now: datetime) -> Window | None:
    """The window a phrase names at `now`, or None for no phrase or one this cannot read."""
    if not phrase:
        return None
    now = now.astimezone(UTC)
    orig = " ".join(phrase.replace("\u2019", "'").split()).strip(" ,.?!")
    text = orig.lower()  # the same length: spans of one are spans of the other
    # Open-ended or vague: "lately", "over the years".
    if re.fullmatch(r"(?:lately|recently|these days|nowadays|of late|in recent (?:weeks|months|days))", text):
        return Window(phrase, now - timedelta(days=RECENT_DAYS), None)
    if re.fullmatch(r"(?:over the years|all these years|over time|ever|always)", text):
        return Window(phrase, None, None)
    if text in ("today", "this morning", "this afternoon", "this evening"):
        return Window(phrase, _floor(now), None)
    if text in ("last night",):
        start = _floor(now) - timedelta(days=1)
        return Window(phrase, start + timedelta(hours=17), _floor(now) + timedelta(hours=6))
    if text == "the day before yesterday":
        start = _floor(now) - timedelta(days=2)
        return Window(phrase, start, start + timedelta(days=1))
    # "this time last year": a month either side of the same day a year ago.
    same_time = re.fullmatch(r"(?:around |about |at )?(?:this|the same) time last (year|month|week)", text)
    if same_time:
        centre = now - unit_delta(1, same_time.group(1))
        spread = {"year": timedelta(days=30), "month": timedelta(days=7), "week": timedelta(days=2)}
        return Window(phrase, centre - spread[same_time.group(1)], centre + spread[same_time.group(1)])
    # "over the past two weeks", "in the last couple of months", "the past few days": back from now.
    span = re.fullmatch(r"(?:over |in |during |for |within )?(?:the )?(?:past|last) (?:(\d+|a|one|two|three|four|five|"
                        r"six|seven|eight|nine|ten|twelve|few|couple(?: of)?|several) )?(day|week|weekend|month|year|"
                        r"decade)s?", text)
    if span and (span.group(1) or text.startswith(("the ", "over ", "in the", "during the", "within"))):
        count = int(span.group(1)) if (span.group(1) or "").isdigit() else NUMBERS.get(span.group(1) or "a", 1)
        unit = span.group(2)
        delta = unit_delta(10 * count if unit == "decade" else count, _UNITS[unit])
        return Window(phrase, now - delta, None)
    # "while I was on holiday", "at Will's birthday party", "before the move": an event to look up.
    event = re.fullmatch(r"(?:while|when) (?:i|we) (?:was|were) (.+)|at (.+)", text)
    if event:
        at = event.start(1) if event.group(1) else event.start(2)
        return Window(phrase, None, None, anchor=orig[at:].strip(), relation="during")
    relation = re.match(r"(since|before|after|until|till|from|back in|in|on|during|over|for|around|at) (.+)", text)
    keyword, rest = (relation.group(1), relation.group(2)) if relation else (None, text)
    rest = re.sub(r"^the (?=\w+ (?:week|month|year)$)", "", rest)
    found = _date(rest, now)
    if found is None and keyword in (None, "in", "on", "during", "over", "for", "around", "at", "back in"):
        found = _date(text, now)
    if found is None:
        if keyword in ("since", "before", "after", "until", "till", "from"):
            relation_name = {"until": "before", "till": "before", "from": "since"}.get(keyword, keyword)
            return Window(phrase, None, None, anchor=orig[len(orig) - len(rest):], relation=relation_name)
        return None
    start, end = found
    if keyword in ("since", "from"):
        return Window(phrase, start, None)
    if keyword in ("before", "until", "till"):
        return Window(phrase, None, start)
    if keyword == "after":
        return Window(phrase, end, None)
    return Window(phrase, start, end)


def around_anchor(window: Window, at: datetime, until: datetime | None = None) -> Window:
    """An anchored window once its event is found: `at` is when the event was (`until` when it
    ended, when known)."""
    end = until or at + timedelta(days=1)
    if window.relation == "before":
        return Window(window.phrase, None, at, window.anchor, window.relation)
    if window.relation in ("since", "after"):
        return Window(window.phrase, at if window.relation == "since" else end, None, window.anchor, window.relation)
    return Window(window.phrase, at - timedelta(days=1), end + timedelta(days=1), window.anchor, window.relation)
