"""The dates a search text names, as windows of time (graph/retrieval/when.py over graph/language/times.py)."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.language import find_times
from graph.retrieval.when import windows

NOW = datetime(2024, 2, 1, 15, 30, tzinfo=UTC)  # a Thursday


def spans(text: str) -> list[tuple[str, str, str]]:
    return [(w.relation, w.start.date().isoformat(), w.end.date().isoformat()) for w in windows(text, NOW)]


@pytest.mark.parametrize("text, expected", [
    ("What did Kate make on 29 Dec 2023?", [("in", "2023-12-29", "2023-12-30")]),
    ("on the 31 of December 2023", [("in", "2023-12-31", "2024-01-01")]),
    ("How many naps on January 6 2024?", [("in", "2024-01-06", "2024-01-07")]),
    ("the 17th of January, 2024", [("in", "2024-01-17", "2024-01-18")]),
    ("What did Paola cook on 22.01.2024?", [("in", "2024-01-22", "2024-01-23")]),  # dotted: day first
    ("before 01/10/2024", [("before", "2024-01-10", "2024-01-11")]),  # slashed: as dateutil reads it
    ("on 2023-05-04", [("in", "2023-05-04", "2023-05-05")]),
    ("in the first week of 2024", [("in", "2024-01-01", "2024-01-08")]),
    ("the last week of March 2023", [("in", "2023-03-25", "2023-04-01")]),
    ("in winter 2021 - 2022", [("in", "2021-12-01", "2022-03-01")]),
    ("in the spring of 2024", [("in", "2024-03-01", "2024-06-01")]),
    ("in May 2023", [("in", "2023-05-01", "2023-06-01")]),
    ("watched in 2017", [("in", "2017-01-01", "2018-01-01")]),
    ("shortly before 7 Jan 2024", [("in", "2023-12-31", "2024-01-07")]),
    ("since 3 January 2024", [("after", "2024-01-03", "2024-01-04")]),
    ("yesterday", [("in", "2024-01-31", "2024-02-01")]),
    ("last week", [("in", "2024-01-22", "2024-01-29")]),
    ("last month", [("in", "2024-01-01", "2024-02-01")]),
    ("last summer", [("in", "2023-06-01", "2023-09-01")]),
    ("two weeks ago", [("in", "2024-01-18", "2024-01-19")]),  # the day, as graph/language reads it
    ("through 5 January 2024", [("before", "2024-01-06", "2024-01-06")]),  # the day itself counts
    ("shortly after 7 Jan 2024", [("in", "2024-01-08", "2024-01-15")]),
    ("on 5 March", [("in", "2023-03-05", "2023-03-06")]),  # no year: the last 5 March before now
    ("on 5 January", [("in", "2024-01-05", "2024-01-06")]),
])
def test_a_date_becomes_its_window(text, expected):
    assert spans(text) == expected


def test_text_without_a_date_names_none_and_a_bad_date_is_skipped():
    assert spans("What is the user's monthly budget?") == []
    assert spans("Which pasta did Kate like?") == []
    assert spans("on 31.02.2024 and 3 May 2024") == [("in", "2024-05-03", "2024-05-04")]


def test_a_window_holds_what_the_question_points_at():
    [on] = windows("on 29 Dec 2023", NOW)
    [before] = windows("before 29 Dec 2023", NOW)
    inside, earlier = datetime(2023, 12, 29, 20, tzinfo=UTC), datetime(2023, 12, 28, tzinfo=UTC)
    assert on.holds(inside) and not on.holds(earlier)
    assert before.holds(earlier) and not before.holds(inside)


def test_seasons_are_placed_from_today_as_the_caller_prefers():
    def season(text: str, prefer: str) -> tuple[str, str]:
        [t] = find_times(text, NOW, prefer)
        assert t.kind == "season"
        return t.window.start.isoformat(), t.window.end.isoformat()
    # On 1 Feb 2024 it is winter (December 2023 to February 2024).
    assert season("next winter", "past") == ("2024-12-01", "2025-03-01")
    assert season("last winter", "past") == ("2022-12-01", "2023-03-01")
    assert season("this summer", "past") == ("2023-06-01", "2023-09-01")
    assert season("this summer", "future") == ("2024-06-01", "2024-09-01")
    assert season("winter 2024", "future") == ("2023-12-01", "2024-03-01")  # the one that ends in 2024
    assert find_times("I love the summer", NOW) == []  # a season without a year or a place names none
