"""graph/language/times.py's `period_of`: the whole period one phrase names, read towards the past
(what a question means), through the same patterns as `find_times` plus seasons, holidays, decades
and weekends. Asking's windows (graph/asking/windows.py) read every period through it."""
from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graph.language.times import period_of

NOW = datetime(2026, 6, 17, 15, tzinfo=UTC)  # a Wednesday


@pytest.mark.parametrize(("phrase", "start", "end"), [
    ("March", "2026-03-01", "2026-04-01"),
    ("may", "2026-05-01", "2026-06-01"),  # a phrase already known to be a time: "may" is the month
    ("June 2019", "2019-06-01", "2019-07-01"),
    ("the 14th", "2026-06-14", "2026-06-15"),
    ("the 20th", "2026-05-20", "2026-05-21"),  # the last one that has been
    ("last week", "2026-06-08", "2026-06-15"),
    ("two weeks ago", "2026-06-01", "2026-06-08"),  # that whole week
    ("a month ago", "2026-05-01", "2026-06-01"),
    ("3 days ago", "2026-06-14", "2026-06-15"),
    ("yesterday", "2026-06-16", "2026-06-17"),
    ("last summer", "2025-06-01", "2025-09-01"),
    ("summer", "2026-06-01", "2026-09-01"),
    ("Christmas", "2025-12-24", "2025-12-27"),
    ("easter", "2026-04-03", "2026-04-07"),
    ("the 90s", "1990-01-01", "2000-01-01"),
    ("the 1980s", "1980-01-01", "1990-01-01"),
    ("last weekend", "2026-06-13", "2026-06-15"),
    ("this weekend", "2026-06-13", "2026-06-15"),  # asked on a weekday: the one just gone
    ("end of last month", "2026-05-31", "2026-06-01"),
])
def test_a_phrase_names_a_whole_period(phrase, start, end):
    found = period_of(phrase, NOW)
    assert found is not None and (found.start.isoformat(), found.end.isoformat()) == (start, end)


def test_what_is_no_period_is_none():
    for phrase in ("the past two weeks", "since March", "the move", "", "in a jiffy"):
        assert period_of(phrase, NOW) is None, phrase
    winter = period_of("winter", date(2026, 1, 15))  # a date works as the reference too
    assert winter is not None and (winter.start, winter.end) == (date(2025, 12, 1), date(2026, 3, 1))
