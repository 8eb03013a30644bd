"""A sentence's temporal fields, against the message time: historical ("I used to"), a future start
(effective_from: "starting next month", "joining Stripe in September"), an end (expires_at: "until
Friday", "for the next two weeks") and a recurrence ("every Monday at 5"). Pure; the time
expressions and RRULEs are graph/language's.

An event's own date ("our wedding is on the 15th of August", "dentist on Thursday") is none of
these: a start needs a start word or a future verb, an end an end word."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from graph.ingestion.vocabulary import ANIMALS, ROLES
from graph.language import find_recurrence, find_times

# "old" before these is age or long standing ("our old dog", "my old mate Sam"), not a former one
# ("my old flat", "my old boss").
_AGEING = "|".join(sorted(ANIMALS | {w for w, r in ROLES.items() if r == "friend"}, key=len, reverse=True))
_HISTORICAL = re.compile(r"(?i)\b(?:used\s+to|use\s+to|back\s+when|back\s+in\s+the\s+day|previously|formerly|"
                         r"in\s+my\s+(?:teens|twenties|thirties|forties|youth|student\s+days)|"
                         r"my\s+first\s+\w+(?:\s+\w+)?\s+was|when\s+i\s+was\s+(?:a\s+kid|young|little|younger|a\s+student)|"
                         r"(?:our|my)\s+old\s+(?!(?:one|" + _AGEING + r")s?\b)\w+|we\s+used\s+to|once\s+upon)\b")
_FUTURE = re.compile(r"(?i)\b(?:will|'ll|’ll|going\s+to|gonna|moving|joining|starting|starts|start|begins?|beginning|"
                     r"from|as\s+of|relocating|switching|taking\s+over|becoming|due\s+to\s+start)\b")
# A change that begins on a day ("I start at Google on the 1st of June", "we move to Leeds in two
# weeks"): a start, where an event's own day ("dentist on Thursday") is not.
_CHANGE = re.compile(r"(?i)\b(?:move|moves|moving|relocat\w+|start|starts|starting|join|joins|joining|begin|begins|"
                     r"beginning|switch|switches|switching)\b")
_START_RELATIONS = ("starting", "starting from", "starting on", "starting in", "starts", "starts on", "starts in",
                    "start", "beginning", "beginning on", "beginning in", "from", "as of", "as from")
_END_RELATIONS = ("until", "till", "til", "through", "thru", "up to")


@dataclass(frozen=True)
class Temporal:
    historical: bool = False
    effective_from: date | None = None
    expires_at: date | None = None
    recurrence: str | None = None


def temporal_of(sentence: str, at: datetime) -> Temporal:
    today = at.date()
    effective = expires = None
    future = bool(_FUTURE.search(sentence))
    change = bool(_CHANGE.search(sentence))
    for t in find_times(sentence, at, "future"):
        rel = t.relation
        if rel in _END_RELATIONS:
            expires = t.window.start if t.kind == "day" or t.kind == "edge" else t.window.last
        elif rel == "for" and t.kind == "span":
            expires = t.window.last
        elif t.window.start > today and (rel in _START_RELATIONS or (future and rel in ("in", None)
                                                                      and t.kind in ("month", "week", "year"))
                                                 or (change and rel in ("in", "on", None) and t.kind == "day")):
            effective = effective or t.window.start
    recurrence = find_recurrence(sentence)
    return Temporal(bool(_HISTORICAL.search(sentence)), effective, expires, recurrence.rrule if recurrence else None)
