"""When a search text says when: the dates and spans it names, resolved into windows of time. Pure.

"What did Kate cook on 29 Dec 2023?", "Where was Elise in the first week of 2024?", "shortly
before 7 Jan 2024", "in the spring of 2024", "last week": each names a span of time that the
memories answering it were said or happened in (their `event_at`). A window is [start, end) in UTC
with the relation the question holds to it: `in` (during it), `before` or `after` it. Dates are
read by python-dateutil (`parser.parse`, `relativedelta`); the patterns below only find where a
date is written. A date without a year is the last one on or before the reference instant (a
question asks about the past); relative phrases ("yesterday", "last month", "3 weeks ago") count
from the reference instant.

Written for retrieval; graph/language/ (another branch) holds the general time-expression helpers,
and the two are to be one module."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta

_MON = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
        r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DAY = r"(?:[12]?\d|3[01])(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"
_SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}
_ORDINAL = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "last": -1}
_NUMBER = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3}

_REL = r"(?:(?P<rel>shortly before|just before|shortly after|just after|before|after|since|until|by)\s+)?"
_FORMS = "|".join((
    r"(?P<dm>" + _DAY + r"\s+(?:of\s+)?" + _MON + r"(?:,?\s+" + _YEAR + r")?)",
    r"(?P<md>" + _MON + r"\s+" + _DAY + r"(?:,?\s+" + _YEAR + r")?)(?![\d:])",
    r"(?P<iso>" + _YEAR + r"-\d{2}-\d{2})",
    # 10.01.2024 is the 10th of January (day first, as dotted dates are written); 01/10/2024 as
    # python-dateutil reads it (month first, unless the first number cannot be a month).
    r"(?P<num>\d{1,2}[./]\d{1,2}[./]" + _YEAR + r")",
    r"(?P<week>(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+of\s+(?:(?P<wmon>" + _MON
    + r")\s+)?(?P<wyear>" + _YEAR + r"))",
    r"(?P<season>(?:the\s+)?(?P<sname>spring|summer|autumn|fall|winter)\s+(?:of\s+)?(?P<syear>" + _YEAR
    + r")(?:\s*[-\u2013/]\s*(?P<syear2>" + _YEAR + r"))?)",
    r"(?P<month>" + _MON + r"(?:\s+of)?\s+" + _YEAR + r")",
    r"(?P<newyear>new year(?:'s)?(?:\s+eve)?\s+(?P<nyear>" + _YEAR + r"))",
    r"(?P<rday>yesterday|today|tonight|last night)",
    r"(?P<last>(?:last|past|previous)\s+(?P<lunit>week(?:end)?|month|year|summer|winter|spring|autumn|fall))",
    (r"(?P<ago>(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|couple of|few)\s+"
     r"(?P<unit>day|week|month|year)s?\s+ago)"),
    r"(?P<year>(?:in\s+)?" + _YEAR + r")",
))
_PATTERN = re.compile(r"(?i)(?<![\w-])" + _REL + r"(?:" + _FORMS + r")(?![\w-])")


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


def _parse(text: str, now: datetime, dayfirst: bool = False) -> datetime:
    """A written date at midnight UTC; without a year, the last such day on or before `now`."""
    default = now.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)
    day = date_parser.parse(text, default=default, fuzzy=True, dayfirst=dayfirst).replace(tzinfo=UTC)
    if not re.search(_YEAR, text) and day > now:
        day -= relativedelta(years=1)
    return day


def _span(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if m["dm"] or m["md"] or m["iso"] or m["num"]:
        day = _parse(m["dm"] or m["md"] or m["iso"] or m["num"], now, dayfirst="." in (m["num"] or ""))
        return day, day + timedelta(days=1)
    if m["week"]:
        month = _parse(f"1 {m['wmon']} {m['wyear']}", now) if m["wmon"] else datetime(int(m["wyear"]), 1, 1,
                                                                                      tzinfo=UTC)
        nth = _ORDINAL[m["nth"].lower()]
        if nth < 0:
            end = month + relativedelta(months=1) if m["wmon"] else month + relativedelta(years=1)
            return end - timedelta(days=7), end
        return month + timedelta(days=7 * nth), month + timedelta(days=7 * nth + 7)
    if m["season"]:
        first_month, months = _SEASONS[m["sname"].lower()]
        year = int(m["syear"])
        if first_month == 12 and m["syear2"] is None and m["sname"].lower() == "winter":
            year -= 1  # "winter 2022" is the one that ends in 2022's spring
        start = datetime(year, first_month, 1, tzinfo=UTC)
        return start, start + relativedelta(months=months)
    if m["month"]:
        start = _parse("1 " + m["month"].replace(" of ", " "), now)
        return start, start + relativedelta(months=1)
    if m["newyear"]:
        year = int(m["nyear"])
        return datetime(year - 1, 12, 31, tzinfo=UTC), datetime(year, 1, 2, tzinfo=UTC)
    if m["rday"]:
        word = m["rday"].lower()
        day = today - timedelta(days=1) if word in ("yesterday", "last night") else today
        return day, day + timedelta(days=1)
    if m["last"]:
        unit = m["lunit"].lower()
        if unit == "weekend":
            saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
            return saturday, saturday + timedelta(days=2)
        if unit in _SEASONS:
            first_month, months = _SEASONS[unit]
            start = datetime(today.year, first_month, 1, tzinfo=UTC)
            while start + relativedelta(months=months) > today:
                start -= relativedelta(years=1)
            return start, start + relativedelta(months=months)
        if unit == "week":
            monday = today - timedelta(days=today.weekday() + 7)
            return monday, monday + timedelta(days=7)
        if unit == "month":
            start = (today.replace(day=1) - relativedelta(months=1))
            return start, start + relativedelta(months=1)
        start = today.replace(month=1, day=1) - relativedelta(years=1)
        return start, start + relativedelta(years=1)
    if m["ago"]:
        n = int(m["n"]) if m["n"].isdigit() else _NUMBER[" ".join(m["n"].lower().split())]
        step = {"day": relativedelta(days=1), "week": relativedelta(weeks=1), "month": relativedelta(months=1),
                "year": relativedelta(years=1)}[m["unit"].lower()]
        back = today - step * n
        return back, back + step
    year = int(re.sub(r"\D", "", m["year"]))
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def windows(text: str, now: datetime) -> list[Window]:
    """The windows of time `text` names, in the order written; `now` (UTC) is what relative phrases
    and dates without a year count from. A phrase that does not make a date is skipped."""
    out = []
    for m in _PATTERN.finditer(text):
        try:
            start, end = _span(m, now)
        except (ValueError, OverflowError, KeyError):
            continue
        rel = (m["rel"] or "").lower()
        relation = "before" if rel in ("before", "shortly before", "just before", "until", "by") else \
            "after" if rel in ("after", "shortly after", "just after", "since") else "in"
        if rel.startswith(("shortly", "just")):
            # "shortly before 7 Jan": the week up to it; "shortly after": the week from its end.
            start, end = (start - timedelta(days=7), start) if relation == "before" else (end, end + timedelta(days=7))
            relation = "in"
        out.append(Window(start, end, relation, m.group(0)))
    return out
