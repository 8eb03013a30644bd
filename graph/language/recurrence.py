"""Recurrences in text as RFC 5545 RRULEs ("every Monday at 5" -> FREQ=WEEKLY;BYDAY=MO;BYHOUR=17;
BYMINUTE=0). Pure.

The phrases are a small grammar (every / each / on <weekday>s / daily / fortnightly / the Nth of
every month / every <month> / the last working day of the month), and a time of day only when one
is said ("at 9", "at 5pm": a bare hour from 1 to 6 is the afternoon). Every rule found is checked
by python-dateutil's `rrulestr` before it is returned. (The `recurrent` package was tried: it reads
"fortnightly" as weekly and drops the day of "June 12th, every year", and has had no release since
2021.)"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from dateutil.rrule import rrulestr

from graph.language.times import MONTHS, WEEKDAYS

_DAY_CODES = {d[:3]: d[:2].upper() for d in WEEKDAYS} | {"tues": "TU", "thur": "TH", "thurs": "TH"}
_WD = (r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|"
       r"sun)")
_MON = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_ORD = r"(?P<dom>[12]?\d|3[01])(?:st|nd|rd|th)?"
_TIME = re.compile(r"(?i)\b(?:at|@)\s*(?P<h>[01]?\d|2[0-3])(?::(?P<m>[0-5]\d))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?(?!\w)"
                   r"|\b(?P<h2>[01]?\d)(?::(?P<m2>[0-5]\d))?\s*(?P<ap2>am|pm)\b|\b(?P<noon>noon|midnight)\b")

_EVERY_OTHER = re.compile(r"(?i)\b(?:every|each)\s+(?:other|second|2nd)\s+(?P<what>" + _WD + r"|week|month|day|year)")
_FORTNIGHTLY = re.compile(r"(?i)\b(?:fortnightly|biweekly|every\s+(?:two|2)\s+weeks|every\s+fortnight)\b")
_WEEKDAY_LIST = re.compile(r"(?i)\b(?:every|each|on)\s+(?P<days>" + _WD + r"s?(?:\s*(?:,|and|&|or)\s*" + _WD +
                           r"s?)*)\b")
_PLURAL_DAYS = re.compile(r"(?i)\b(?P<days>" + _WD + r"s(?:\s*(?:,|and|&)\s*" + _WD + r"s)*)\b")
_WEEKDAYS_ALL = re.compile(r"(?i)\b(?:every\s+weekday|weekdays|every\s+working\s+day|mon(?:day)?\s*(?:-|to)\s*"
                           r"fri(?:day)?)\b")
_LAST_WORKING = re.compile(r"(?i)\blast\s+(?:working|business|week)\s*day\s+of\s+(?:the|each|every)\s+month\b")
_NTH_WEEKDAY = re.compile(r"(?i)\b(?P<n>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+(?P<day>" + _WD +
                          r")\s+of\s+(?:the|each|every)\s+month\b")
_MONTH_DAY = re.compile(r"(?i)\b(?:on\s+)?(?:the\s+)?" + _ORD + r"\s+of\s+(?:every|each|the)\s+month\b"
                        r"|\b(?:every|each)\s+month\s+on\s+the\s+" + _ORD.replace("dom", "dom2") +
                        r"|\bmonthly\s+on\s+the\s+" + _ORD.replace("dom", "dom3") +
                        r"|\bevery\s+" + _ORD.replace("dom", "dom4") + r"\s+of\s+the\s+month\b")
_DUE_ON = re.compile(r"(?i)\b(?:due|paid|goes out|comes in|payday is|renews?)\b[^.!?]{0,20}?\bon\s+the\s+" +
                     _ORD + r"\b")
_EVERY_MONTH_NAME = re.compile(r"(?i)\b(?:every|each)\s+(?:year\s+in\s+)?(?P<month>" + _MON + r")\b")
_EVERY_UNIT = re.compile(r"(?i)\b(?:every|each)\s+(?P<unit>day|morning|evening|night|week|month|year|weekend)\b"
                         r"|\b(?P<adv>daily|nightly|weekly|monthly|yearly|annually)\b")
_DATE_IN_TEXT = re.compile(r"(?i)\b(?P<month>" + _MON + r")\s+" + _ORD + r"\b|\b" + _ORD.replace("dom", "dom2") +
                           r"\s+(?:of\s+)?(?P<month2>" + _MON + r")\b")


@dataclass(frozen=True)
class Recurrence:
    rrule: str  # without the RRULE: prefix, parts in a fixed order
    start: int  # the span of the phrase that said it
    end: int


def _codes(days: str) -> list[str]:
    found = re.findall(r"(?i)" + _WD, days)
    return list(dict.fromkeys(_DAY_CODES[d.lower()[:3]] if d.lower()[:3] in _DAY_CODES else _DAY_CODES[d.lower()]
                              for d in found))


def _time_parts(text: str) -> list[str]:
    m = _TIME.search(text)
    if m is None:
        return []
    if m["noon"]:
        return [f"BYHOUR={12 if m['noon'].lower() == 'noon' else 0}", "BYMINUTE=0"]
    hour = int(m["h"] or m["h2"])
    minute = int(m["m"] or m["m2"] or 0)
    ap = (m["ap"] or m["ap2"] or "").replace(".", "").lower()
    if ap == "pm" and hour < 12:
        hour += 12
    elif ap == "am" and hour == 12:
        hour = 0
    elif not ap and 1 <= hour <= 6:
        hour += 12  # "choir at 5" is five in the afternoon
    return [f"BYHOUR={hour}", f"BYMINUTE={minute}"]


def find_recurrence(text: str) -> Recurrence | None:
    """The first recurrence `text` states, or None."""
    rule, span = _rule(text)
    if rule is None or span is None:
        return None
    if not any(p.startswith("BYHOUR") for p in rule) and rule[0] in ("FREQ=DAILY", "FREQ=WEEKLY"):
        rule += _time_parts(text)
    rrule = ";".join(rule)
    try:
        rrulestr("RRULE:" + rrule, dtstart=datetime(2026, 1, 1))
    except (ValueError, TypeError):
        return None
    return Recurrence(rrule, *span)


def _rule(text: str) -> tuple[list[str] | None, tuple[int, int] | None]:
    if m := _LAST_WORKING.search(text):
        return ["FREQ=MONTHLY", "BYDAY=MO,TU,WE,TH,FR", "BYSETPOS=-1"], m.span()
    if m := _NTH_WEEKDAY.search(text):
        pos = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
               "last": -1}[m["n"].lower()]
        return ["FREQ=MONTHLY", f"BYDAY={_codes(m['day'])[0]}", f"BYSETPOS={pos}"], m.span()
    if m := _MONTH_DAY.search(text):
        day = next(v for k, v in m.groupdict().items() if k.startswith("dom") and v)
        return ["FREQ=MONTHLY", f"BYMONTHDAY={int(day)}"], m.span()
    if m := _EVERY_OTHER.search(text):
        what = m["what"].lower()
        if what in ("week", "month", "day", "year"):
            freq = {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}[what]
            return [f"FREQ={freq}", "INTERVAL=2", *_weekday_part(text)], m.span()
        return ["FREQ=WEEKLY", "INTERVAL=2", f"BYDAY={','.join(_codes(what))}"], m.span()
    if m := _FORTNIGHTLY.search(text):
        return ["FREQ=WEEKLY", "INTERVAL=2", *_weekday_part(text)], m.span()
    if m := _WEEKDAYS_ALL.search(text):
        return ["FREQ=WEEKLY", "BYDAY=MO,TU,WE,TH,FR"], m.span()
    if m := _EVERY_MONTH_NAME.search(text):
        month = MONTHS.index(m["month"].lower()) + 1
        return ["FREQ=YEARLY", f"BYMONTH={month}"], m.span()
    if m := _WEEKDAY_LIST.search(text):
        days = m["days"]
        # "on Monday" is one day; "on Mondays", "every Monday" recur.
        if m.group().lower().startswith(("every", "each")) or re.search(r"(?i)" + _WD + r"s\b", days):
            return ["FREQ=WEEKLY", f"BYDAY={','.join(_codes(days))}"], m.span()
    if m := _PLURAL_DAYS.search(text):
        return ["FREQ=WEEKLY", f"BYDAY={','.join(_codes(m['days']))}"], m.span()
    if m := _EVERY_UNIT.search(text):
        unit = (m["unit"] or m["adv"]).lower()
        if unit in ("day", "morning", "evening", "night", "daily", "nightly"):
            return ["FREQ=DAILY"], m.span()
        if unit in ("week", "weekly"):
            return ["FREQ=WEEKLY", *_weekday_part(text)], m.span()
        if unit == "weekend":
            return ["FREQ=WEEKLY", "BYDAY=SA,SU"], m.span()
        if unit in ("month", "monthly"):
            return ["FREQ=MONTHLY"], m.span()
        date = _DATE_IN_TEXT.search(text)
        if date:
            month = MONTHS.index((date["month"] or date["month2"]).lower()) + 1
            day = int(date["dom"] or date["dom2"])
            return ["FREQ=YEARLY", f"BYMONTH={month}", f"BYMONTHDAY={day}"], m.span()
        return ["FREQ=YEARLY"], m.span()
    if m := _DUE_ON.search(text):
        return ["FREQ=MONTHLY", f"BYMONTHDAY={int(m['dom'])}"], m.span()
    return None, None


def _weekday_part(text: str) -> list[str]:
    m = re.search(r"(?i)\b(?:on\s+)?(?P<days>" + _WD + r")s?\b", text)
    return [f"BYDAY={','.join(_codes(m['days']))}"] if m else []
