from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from graph.core import cursor
from graph.core.errors import InvalidInput
from graph.core.timeutil import iso, to_utc


def test_cursor_round_trips():
    created = datetime(2026, 5, 1, 12, 30, 15, 123456, tzinfo=UTC)
    memory_id = "0b9f3c52-7a8e-4a51-9d3e-2f1c6b0e8a77"
    token = cursor.encode(created, memory_id)
    assert "=" not in token
    assert cursor.decode(token) == ("2026-05-01T12:30:15.123456Z", memory_id)


@pytest.mark.parametrize("token", ["", "not-a-cursor", "WyJ4Il0", "bnVsbA", "WyJub3QtYS1kYXRlIiwiaWQiXQ",
                                   # a date-only time, an id that is no memory id, a time past year 9999 in UTC
                                   "WyIyMDI0LTAxLTAxIiwiMGI5ZjNjNTItN2E4ZS00YTUxLTlkM2UtMmYxYzZiMGU4YTc3Il0",
                                   "WyIyMDI0LTAxLTAxVDAwOjAwOjAwWiIsImFiYyJd",
                                   "WyI5OTk5LTEyLTMxVDIzOjU5OjU5LTE0OjAwIiwiMGI5ZjNjNTItN2E4ZS00YTUxLTlkM2UtMmYxYzZiMGU4YTc3Il0"])
def test_garbage_cursors_are_invalid_input(token):
    with pytest.raises(InvalidInput) as err:
        cursor.decode(token)
    assert err.value.field == "cursor"


def test_times_are_utc_iso_with_z():
    plus_two = timezone(timedelta(hours=2))
    assert iso(datetime(2026, 1, 1, 2, 0, tzinfo=plus_two)) == "2026-01-01T00:00:00Z"
    assert iso(datetime(2026, 1, 1, 0, 0)) == "2026-01-01T00:00:00Z"  # naive is read as UTC
    assert iso(None) is None
    assert to_utc(datetime(2026, 1, 1, 2, 0, tzinfo=plus_two)).hour == 0
