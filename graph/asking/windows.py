"""A window phrase ("last week", "in March", "last summer", "since Christmas", "before the move") as
an interval [start, end) at an instant `now`. Dates and their periods come from dateparser ("March"
is a month, "2019" a year, "two weeks ago" a week); this module only knows the words a date parser
does not (seasons, holidays, "lately", "over the years") and what a preposition does to a period
("since X": from X's start to now; "before X": up to X's start). A phrase that names an event
instead of a date ("before the move", "since I got the raise") resolves to an anchor: the caller
finds when that event was and calls `around_anchor`. Pure: no I/O, `now` is given.

Seasons are meteorological and northern (summer is June to August); "recently" and "lately" are
the last 30 days."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

from dateparser.date import DateDataParser  # type: ignore[import-untyped]
from dateutil.easter import easter
from dateutil.relativedelta import TH, relativedelta

RECENT_DAYS = 30
_SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}
_UNITS = {"day": "days", "week": "weeks", "weekend": "weeks", "month": "months", "year": "years",
          "decade": "years", "summer": "years", "winter": "years", "night": "days"}
_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "twelve": 12, "few": 3, "couple": 2, "couple of": 2, "several": 4}


@dataclass(frozen=True)
class Window:
    phrase: str
    start: datetime | None  # None: open (since ever)
    end: datetime | None  # exclusive; None: open (until now and on)
    anchor: str | None = None  # an event to find first ("the move"): start/end are then unset
    relation: str | None = None  # before | after | since | during: what the window is to the anchor


def _delta(unit: str, count: int) -> relativedelta:
    return relativedelta(days=count if unit == "days" else 0, weeks=count if unit == "weeks" else 0,
                         months=count if unit == "months" else 0, years=count if unit == "years" else 0)


def _floor(day: datetime) -> datetime:
    return day.replace(hour=0, minute=0, second=0, microsecond=0)


@cache
def _parser(now: datetime) -> DateDataParser:
    return DateDataParser(languages=["en"], settings={
        "RELATIVE_BASE": now.replace(tzinfo=None), "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True,
        "PREFER_DAY_OF_MONTH": "first"})


def _period(start: datetime, period: str) -> tuple[datetime, datetime]:
    """The whole period (day, week, month, year) that holds `start`."""
    day = _floor(start)
    if period == "year":
        first = day.replace(month=1, day=1)
        return first, first + relativedelta(years=1)
    if period == "month":
        first = day.replace(day=1)
        return first, first + relativedelta(months=1)
    if period == "week":
        first = day - timedelta(days=day.weekday())
        return first, first + timedelta(days=7)
    return day, day + timedelta(days=1)


def _holiday(name: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The last such day (or season) that started before now."""
    for years_back in (0, 1):
        year = now.year - years_back
        if name in ("christmas", "xmas"):
            start = datetime(year, 12, 24, tzinfo=UTC)
            span = timedelta(days=3)
        elif name in ("new year", "new year's", "new years"):
            start = datetime(year, 12, 31, tzinfo=UTC)
            span = timedelta(days=2)
        elif name == "easter":
            sunday = easter(year)
            start = datetime(sunday.year, sunday.month, sunday.day, tzinfo=UTC) - timedelta(days=2)
            span = timedelta(days=4)
        elif name == "thanksgiving":
            start = datetime(year, 11, 1, tzinfo=UTC) + relativedelta(weekday=TH(4))
            span = timedelta(days=4)
        elif name == "halloween":
            start = datetime(year, 10, 31, tzinfo=UTC)
            span = timedelta(days=1)
        elif name == "the holidays":
            start = datetime(year, 12, 20, tzinfo=UTC)
            span = timedelta(days=14)
        else:
            return None
        if start <= now:
            return start, start + span
    return None


def _season(name: str, now: datetime, last: bool) -> tuple[datetime, datetime]:
    month, length = _SEASONS[name]
    start = datetime(now.year, month, 1, tzinfo=UTC)
    if name == "winter" and now.month < 3:
        start = datetime(now.year - 1, 12, 1, tzinfo=UTC)
    if start > now or (last and start + relativedelta(months=length) > now):
        start -= relativedelta(years=1)
    return start, start + relativedelta(months=length)


def _date(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """A date or period as dateparser reads it, as the whole period it names."""
    text = text.strip()
    if not text:
        return None
    holiday = _holiday(text, now)
    if holiday:
        return holiday
    season = re.fullmatch(r"(?:(last|this) )?(spring|summer|autumn|fall|winter)", text)
    if season:
        return _season(season.group(2), now, last=season.group(1) == "last")
    if re.fullmatch(r"'?\d\d|\d{4}s|the \d0s", text):
        decade = int(re.sub(r"\D", "", text)[:4].ljust(4, "0")) if len(re.sub(r"\D", "", text)) >= 3 else \
            1900 + int(re.sub(r"\D", "", text))
        return datetime(decade, 1, 1, tzinfo=UTC), datetime(decade + 10, 1, 1, tzinfo=UTC)
    weekend = re.fullmatch(r"(last|past|previous|this) weekend", text)
    if weekend:
        back = (now.weekday() - 5) % 7
        saturday = _floor(now) - timedelta(days=back if weekend.group(1) == "this" or back >= 2 else back + 7)
        return saturday, saturday + timedelta(days=2)
    data = _parser(now.replace(tzinfo=None, microsecond=0)).get_date_data(text)
    if data.date_obj is None:
        return None
    found = data.date_obj.replace(tzinfo=UTC) if data.date_obj.tzinfo is None else data.date_obj.astimezone(UTC)
    return _period(found, data.period or "day")


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
        centre = now - _delta(_UNITS[same_time.group(1)], 1)
        spread = {"year": timedelta(days=30), "month": timedelta(days=7), "week": timedelta(days=2)}
        return Window(phrase, centre - spread[same_time.group(1)], centre + spread[same_time.group(1)])
    # "over the past two weeks", "in the last couple of months", "the past few days": back from now.
    span = re.fullmatch(r"(?:over |in |during |for |within )?(?:the )?(?:past|last) (?:(\d+|a|one|two|three|four|five|"
                        r"six|seven|eight|nine|ten|twelve|few|couple(?: of)?|several) )?(day|week|weekend|month|year|"
                        r"decade)s?", text)
    if span and (span.group(1) or text.startswith(("the ", "over ", "in the", "during the", "within"))):
        count = int(span.group(1)) if (span.group(1) or "").isdigit() else _NUMBERS.get(span.group(1) or "a", 1)
        unit = span.group(2)
        delta = _delta("years", 10 * count) if unit == "decade" else _delta(_UNITS[unit], count)
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
