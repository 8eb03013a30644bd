"""Time expressions in text, resolved against a reference instant into windows of days. Pure.

A window is first-class: "last week", "in March", "next month" are spans [start, end) of whole days
(end exclusive); a day ("tomorrow", "Friday", "the 25th") is a window one day long. Callers read
what they need: a start ("starting next month" -> window.start), the last day something holds
("until the end of the month" -> window.last), or the span itself (a question's "last week").

Which way an ambiguous expression points is the caller's `prefer`: "future" (what a message about
plans means: "Friday" is the first Friday strictly after the reference day, "in June" the next June)
or "past" (what a question about history means: "Friday" the last one before it, "in March" the
last March that has begun). The phrases are found by the patterns below; dates are parsed and
shifted by python-dateutil (`parser.parse`, `relativedelta`), so no calendar arithmetic is
written here.

`period_of` reads one phrase that names a whole period at a reference instant, as a question about
the past means it: a date, week, month or year through the same patterns, "two weeks ago" as that
whole week, and the words the patterns leave out: a bare season ("summer": the patterns read one
with its year or "last", "this", "next"), holidays ("Christmas", "Easter"), decades ("the 90s") and weekends."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from dateutil import parser as date_parser
from dateutil.easter import easter
from dateutil.relativedelta import TH, relativedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "couple": 2, "few": 3, "several": 4}
UNITS = ("day", "week", "month", "year")

_WD = (r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|"
       r"sun)")
_MON = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
        r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_ORD = r"(?:[12]?\d|3[01])(?:st|nd|rd|th)?"
_NUM = r"(?:\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of|few)"
_UNIT = r"(?:day|week|fortnight|month|year)s?"
# The relation a phrase holds to what it dates, when a word before it says so.
_REL = (r"(?:(?P<rel>starting(?: from| on| in)?|starts?(?: on| in)?|beginning(?: on| in)?|from|as of|as from|"
        r"until|till|til|through|thru|up to|by|before|after|since|on|in|at|during|for|over)\s+)?")

_YEAR = r"(?:19|20)\d{2}"
_SEASON = r"(?:spring|summer|autumn|fall|winter)"
# Seasons are meteorological and northern: three months from the first (summer is June to August).
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_NTH_WEEK = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "last": -1}

# Each alternative is one expression; its group name says how it resolves (see _resolve).
_CORE = "|".join((
    # "the first week of 2024", "the last week of March 2023": before `span`, which reads "the last week".
    (r"(?P<nth_week>(?:the\s+)?(?:first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+of\s+(?:" + _MON
     + r"\.?\s+)?" + _YEAR + r")"),
    # "last summer", "the spring of 2024", "winter 2021 - 2022"; a bare season names no year.
    (r"(?P<season>(?:this|next|last|coming)\s+" + _SEASON + r"|(?:the\s+)?" + _SEASON + r"\s+(?:of\s+)?" + _YEAR
     + r"(?:\s*[-\u2013/]\s*" + _YEAR + r")?)"),
    # 22.01.2024 is day first, as dotted dates are written; 01/10/2024 as dateutil reads it (month first
    # unless the first number cannot be a month).
    r"(?P<num>\d{1,2}[./]\d{1,2}[./]" + _YEAR + r")",
    r"(?P<rday>today|tonight|tomorrow|yesterday|the day after tomorrow|the day before yesterday)",
    (r"(?P<edge>(?:the\s+)?(?:end|start|beginning|middle)\s+of\s+(?:the\s+|this\s+|next\s+|last\s+)?"
     r"(?:week|month|year))"),
    (r"(?P<span>the\s+(?:next|coming|past|last|following)\s+(?:" + _NUM + r"\s+)?" + _UNIT
     + r"|(?:next|coming|past|last|following)\s+" + _NUM + r"\s+" + _UNIT + r")"),
    r"(?P<rel_unit>(?:this|next|last|coming)\s+(?:week(?:end)?|month|year))",
    r"(?P<ago>" + _NUM + r"\s+" + _UNIT + r"\s+(?:ago|from now|later))",
    r"(?P<dom_of>(?:the\s+)?" + _ORD + r"\s+of\s+(?:next|this|the)\s+month)",
    r"(?P<dm>(?:the\s+)?" + _ORD + r"\s+(?:of\s+)?" + _MON + r"\.?(?:,?\s+\d{4})?)",
    r"(?P<md>" + _MON + r"\.?\s+" + _ORD + r"(?:,?\s+\d{4})?(?![\w:]))",
    r"(?P<wd>(?:(?:this|next|last|coming)\s+)?" + _WD + r"(?!s\b))",
    r"(?P<month>" + _MON + r"(?:\s+\d{4})?)",
    r"(?P<dom>the\s+" + _ORD + r")",
    r"(?P<year>(?:19|20)\d{2})",
    r"(?P<iso>\d{4}-\d{2}-\d{2})",
))
_PATTERN = re.compile(r"(?i)(?<![\w-])" + _REL + r"(?:" + _CORE + r")(?![\w-])")
# "in" before these is the unit of a duration or a time of day, not a date ("in two weeks" is
# handled by `ago`-like `in N units` below).
_IN_N = re.compile(r"(?i)(?<![\w-])(?P<rel>in|within)\s+(?P<n>" + _NUM + r")\s+(?P<unit>" + _UNIT + r")(?![\w-])")


@dataclass(frozen=True)
class Window:
    """Whole days [start, end): end is exclusive."""
    start: date
    end: date

    @property
    def last(self) -> date:
        """The last day inside the window."""
        return self.end - timedelta(days=1)

    @property
    def days(self) -> int:
        return (self.end - self.start).days


@dataclass(frozen=True)
class TimeMention:
    text: str  # as written, with its relation word
    start: int
    end: int
    window: Window
    relation: str | None  # the word before it that says how it dates something: until, from, in, ...
    kind: str  # day | week | month | season | year | span | edge: what the window is


def _day(d: date) -> Window:
    return Window(d, d + timedelta(days=1))


def _number(text: str) -> int:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else NUMBERS[text]


def unit_delta(n: int, unit: str) -> relativedelta:
    """N days, weeks, fortnights, months or years (the unit singular or plural)."""
    unit = unit.lower().rstrip("s")
    if unit == "fortnight":
        return relativedelta(weeks=2 * n)
    if unit == "day":
        return relativedelta(days=n)
    if unit == "week":
        return relativedelta(weeks=n)
    if unit == "month":
        return relativedelta(months=n)
    return relativedelta(years=n)


def _month_number(word: str) -> int:
    return _MONTH_ABBR[word.lower().rstrip(".")[:4] if word.lower().startswith("sept") else word.lower()[:3]]


def _weekday(word: str) -> int:
    w = word.lower()[:3]
    return [d[:3] for d in WEEKDAYS].index(w)


def _week_start(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _month_window(year: int, month: int) -> Window:
    start = date(year, month, 1)
    return Window(start, start + relativedelta(months=1))


def _resolve(m: re.Match[str], today: date, prefer: str) -> tuple[Window, str] | None:
    g = m.groupdict()
    future = prefer == "future"
    if g["nth_week"]:
        words = g["nth_week"].lower().replace("the ", "").split()
        year = int(words[-1])
        whole = _month_window(year, _month_number(words[3])) if len(words) > 4 else \
            Window(date(year, 1, 1), date(year + 1, 1, 1))
        nth = _NTH_WEEK[words[0]]
        first = whole.end - timedelta(days=7) if nth < 0 else whole.start + timedelta(days=7 * nth)
        return Window(first, first + timedelta(days=7)), "week"
    if g["season"]:
        return _named_season(g["season"], today, future), "season"
    if g["num"]:
        try:
            parsed = date_parser.parse(g["num"], dayfirst="." in g["num"]).date()
        except (ValueError, OverflowError):
            return None
        return _day(parsed), "day"
    if g["rday"]:
        word = " ".join(g["rday"].lower().split())
        shift = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1, "the day after tomorrow": 2,
                 "the day before yesterday": -2}[word]
        return _day(today + timedelta(days=shift)), "day"
    if g["edge"]:
        words = g["edge"].lower().split()
        which, unit = words[0] if words[0] != "the" else words[1], words[-1]
        shift = 1 if "next" in words else -1 if "last" in words else 0
        if unit == "week":
            first = _week_start(today) + timedelta(weeks=shift)
            whole = Window(first, first + timedelta(days=7))
        elif unit == "month":
            first = date(today.year, today.month, 1) + relativedelta(months=shift)
            whole = _month_window(first.year, first.month)
        else:
            whole = Window(date(today.year + shift, 1, 1), date(today.year + shift + 1, 1, 1))
        if which == "end":
            return _day(whole.last), "edge"
        if which == "middle":
            return _day(whole.start + timedelta(days=whole.days // 2)), "edge"
        return _day(whole.start), "edge"
    if g["span"]:
        words = g["span"].lower().replace("the ", "").split()
        direction = -1 if words[0] in ("past", "last") else 1
        n = _number(" ".join(words[1:-1])) if len(words) > 2 else 1
        delta = unit_delta(n, words[-1])
        if direction > 0:  # the next N days: from tomorrow through today + N
            return Window(today + timedelta(days=1), today + delta + timedelta(days=1)), "span"
        return Window(today - delta, today), "span"
    if g["rel_unit"]:
        which, unit = g["rel_unit"].lower().split()
        shift = {"this": 0, "next": 1, "coming": 1, "last": -1}[which]
        if unit == "week":
            first = _week_start(today) + timedelta(weeks=shift)
            return Window(first, first + timedelta(days=7)), "week"
        if unit == "weekend":
            saturday = _week_start(today) + timedelta(days=5, weeks=shift)
            return Window(saturday, saturday + timedelta(days=2)), "week"
        if unit == "month":
            first = date(today.year, today.month, 1) + relativedelta(months=shift)
            return _month_window(first.year, first.month), "month"
        return Window(date(today.year + shift, 1, 1), date(today.year + shift + 1, 1, 1)), "year"
    if g["ago"]:
        words = g["ago"].lower().split()
        sign = -1 if words[-1] == "ago" else 1
        tail = 1 if words[-1] in ("ago", "later") else 2
        n = _number(" ".join(words[:-(tail + 1)]))
        unit = words[-(tail + 1)]
        return _day(today + sign * unit_delta(n, unit)), "day"
    if g["dom_of"]:
        words = g["dom_of"].lower().split()
        day = int(re.sub(r"\D", "", next(w for w in words if w[0].isdigit())))
        first = date(today.year, today.month, 1) + relativedelta(months=1 if "next" in words else 0)
        try:
            return _day(first.replace(day=day)), "day"
        except ValueError:
            return None
    if g["dm"] or g["md"]:
        return _absolute(g["dm"] or g["md"], today, future)
    if g["wd"]:
        words = g["wd"].lower().split()
        target = _weekday(words[-1])
        which = words[0] if len(words) > 1 else None
        if which == "last" or (which is None and not future):
            back = (today.weekday() - target) % 7 or 7
            return _day(today - timedelta(days=back)), "day"
        ahead = (target - today.weekday()) % 7 or 7
        # "next Friday" said on a Monday is read as this coming Friday, as most speakers mean it.
        if which == "this" and ahead == 7:
            ahead = 0
        return _day(today + timedelta(days=ahead)), "day"
    if g["month"]:
        words = g["month"].split()
        month = _month_number(words[0])
        if len(words) > 1:
            return _month_window(int(words[1]), month), "month"
        year = today.year
        if future and month <= today.month:
            year += 1
        elif not future and month > today.month:
            year -= 1
        return _month_window(year, month), "month"
    if g["dom"]:
        day = int(re.sub(r"\D", "", g["dom"]))
        first = date(today.year, today.month, 1)
        candidate = _safe_day(first, day)
        if future and (candidate is None or candidate <= today):
            candidate = _safe_day(first + relativedelta(months=1), day)
        elif not future and (candidate is None or candidate > today):
            candidate = _safe_day(first - relativedelta(months=1), day)
        return (_day(candidate), "day") if candidate else None
    if g["year"]:
        year = int(g["year"])
        return Window(date(year, 1, 1), date(year + 1, 1, 1)), "year"
    if g["iso"]:
        try:
            return _day(date.fromisoformat(g["iso"])), "day"
        except ValueError:
            return None
    return None


def _named_season(text: str, today: date, future: bool) -> Window:
    """A season with its year ("winter 2022" is the one that ends in 2022), or as "this", "next",
    "coming" or "last" place it from today; "this" is the one now, else the one `prefer` points to."""
    words = text.lower().replace("the ", "").replace(" of ", " ").split()
    name = next(w for w in words if w in _SEASONS)
    years = re.findall(_YEAR, text)
    if years:
        year = int(years[0]) - (1 if name == "winter" and len(years) == 1 else 0)
        start = date(year, _SEASONS[name], 1)
        return Window(start, start + relativedelta(months=3))
    which = words[0]
    if which == "last":
        return _season(name, today, last=True)
    begun = _season(name, today, last=False)
    if which in ("next", "coming") or (which == "this" and begun.end <= today and future):
        start = begun.start + relativedelta(years=1)
        return Window(start, start + relativedelta(months=3))
    return begun


def _safe_day(first: date, day: int) -> date | None:
    try:
        return first.replace(day=day)
    except ValueError:
        return None


def _absolute(text: str, today: date, future: bool) -> tuple[Window, str] | None:
    """A day and month (and maybe a year), parsed by dateutil; without a year, the next (future) or
    last (past) such day, today included."""
    clean = re.sub(r"(?i)\b(the|of)\b", " ", text)
    try:
        parsed = date_parser.parse(clean, default=datetime(today.year, 1, 1)).date()
    except (ValueError, OverflowError):
        return None
    if not re.search(r"\d{4}", text):
        if future and parsed < today:
            parsed = parsed + relativedelta(years=1)
        elif not future and parsed > today:
            parsed = parsed - relativedelta(years=1)
    return _day(parsed), "day"


def find_times(text: str, ref: datetime | date, prefer: str = "future") -> list[TimeMention]:
    """Every time expression in `text`, resolved against `ref` (its UTC date), left to right."""
    today = ref.date() if isinstance(ref, datetime) else ref
    found: list[TimeMention] = []
    taken: list[tuple[int, int]] = []
    for m in _IN_N.finditer(text):
        n, unit = _number(m["n"]), m["unit"]
        found.append(TimeMention(m.group(), m.start(), m.end(), _day(today + unit_delta(n, unit)), "in", "day"))
        taken.append((m.start(), m.end()))
    for m in _PATTERN.finditer(text):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        if _not_a_date(m, text):
            continue
        resolved = _resolve(m, today, prefer)
        if resolved is None:
            continue
        window, kind = resolved
        rel = m["rel"].lower() if m["rel"] else None
        found.append(TimeMention(m.group(), m.start(), m.end(), window, rel, kind))
    return sorted(found, key=lambda t: t.start)


def _not_a_date(m: re.Match[str], text: str) -> bool:
    """Words that look like dates but are not, here: "may" the verb, "march" the verb, a bare
    number that is an amount ("40k by 2028" keeps 2028, "since 2015" keeps 2015)."""
    core = m.group().lower().split()[-1]
    if m["month"] and core in ("may", "march", "jan", "mar", "sat", "sun", "wed") and not m["rel"] \
            and not m["month"][0].isupper():
        return True
    if m["month"] and core == "may" and m["month"][0] == "M" and m.start() > 0 and not m["rel"]:
        return True  # "I May ..." is rare; a sentence-inner "May" without a preposition is the verb
    if m["wd"] and core in ("sat", "sun", "wed") and not m["wd"][0].isupper() and not m["rel"]:
        return True
    if m["dom"] and not m["rel"]:
        return False
    return False


def window_of(phrase: str, ref: datetime | date, prefer: str = "past") -> Window | None:
    """The window of one phrase ("last week", "in March", "yesterday"), or None if it names none."""
    times = find_times(phrase, ref, prefer)
    return times[0].window if times else None


def _whole(day: date, unit: str) -> Window:
    """The whole day, week (Monday first), month or year that holds `day`."""
    if unit == "year":
        return Window(date(day.year, 1, 1), date(day.year + 1, 1, 1))
    if unit == "month":
        return _month_window(day.year, day.month)
    if unit in ("week", "fortnight"):
        return Window(_week_start(day), _week_start(day) + timedelta(days=7))
    return _day(day)


def _holiday(name: str, today: date) -> Window | None:
    """The last such day (or days) that began by `today`."""
    for year in (today.year, today.year - 1):
        if name in ("christmas", "xmas"):
            start, days = date(year, 12, 24), 3
        elif name in ("new year", "new year's", "new years"):
            start, days = date(year, 12, 31), 2
        elif name == "easter":
            start, days = easter(year) - timedelta(days=2), 4
        elif name == "thanksgiving":
            start, days = date(year, 11, 1) + relativedelta(weekday=TH(4)), 4
        elif name == "halloween":
            start, days = date(year, 10, 31), 1
        elif name == "the holidays":
            start, days = date(year, 12, 20), 14
        else:
            return None
        if start <= today:
            return Window(start, start + timedelta(days=days))
    return None


def _season(name: str, today: date, last: bool) -> Window:
    """The season that has begun by `today` (`last`: the last one that has ended)."""
    start = date(today.year - (name == "winter" and today.month < 3), _SEASONS[name], 1)
    if start > today or (last and start + relativedelta(months=3) > today):
        start -= relativedelta(years=1)
    return Window(start, start + relativedelta(months=3))


def period_of(phrase: str, ref: datetime | date) -> Window | None:
    """The whole period one phrase names ("March", "last week", "two weeks ago", "the 14th", "last
    summer", "Christmas", "the 90s", "last weekend"), read towards the past from `ref` (its date), or
    None when the phrase is anything else (a span from now such as "the past two weeks" included:
    `find_times` reads those)."""
    today = ref.date() if isinstance(ref, datetime) else ref
    text = " ".join(phrase.lower().replace("\u2019", "'").split())
    if not text:
        return None
    holiday = _holiday(text, today)
    if holiday:
        return holiday
    season = re.fullmatch(r"(?:(last|this) )?(spring|summer|autumn|fall|winter)", text)
    if season:
        return _season(season.group(2), today, last=season.group(1) == "last")
    if re.fullmatch(r"'?\d\d|(?:the )?\d{4}s|the \d0s", text):
        digits = re.sub(r"\D", "", text)
        decade = int(digits[:4].ljust(4, "0")) if len(digits) >= 3 else 1900 + int(digits)
        return Window(date(decade, 1, 1), date(decade + 10, 1, 1))
    weekend = re.fullmatch(r"(last|past|previous|this) weekend", text)
    if weekend:  # "this weekend" asked on a weekday is the one just gone
        back = (today.weekday() - 5) % 7
        saturday = today - timedelta(days=back if weekend.group(1) == "this" or back >= 2 else back + 7)
        return Window(saturday, saturday + timedelta(days=2))
    m = _PATTERN.fullmatch(text)
    if m is None or m["rel"] or m["span"]:
        return None
    resolved = _resolve(m, today, "past")
    if resolved is None:
        return None
    if m["ago"]:  # "two weeks ago": that whole week
        unit = next(w for w in m["ago"].split() if re.fullmatch(_UNIT, w))
        return _whole(resolved[0].start, unit.rstrip("s"))
    return resolved[0]
