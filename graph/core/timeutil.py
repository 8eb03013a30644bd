"""Time in one convention: tz-aware UTC in Python, ISO-8601 'Z' strings on the wire to Cypher."""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, overload

from graph.core.errors import InvalidInput


def utcnow() -> datetime:
    return datetime.now(UTC)


def to_utc(value: datetime) -> datetime:
    # A naive datetime from a client is taken as UTC, the only sane reading for stored facts.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def check_instant(value: Any, field: str) -> datetime | None:
    """A datetime the service can store and compare: as UTC it must still fall in years 1..9999
    (`9999-12-31T23:59:59-14:00` does not, and overflowed every comparison and conversion)."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InvalidInput(field, "must be a datetime or null")
    try:
        return to_utc(value)
    except OverflowError:
        raise InvalidInput(field, "falls outside the years 1 to 9999 once converted to UTC") from None


@overload
def iso(value: datetime) -> str: ...
@overload
def iso(value: None) -> None: ...
@overload
def iso(value: datetime | None) -> str | None: ...
def iso(value: datetime | None) -> str | None:
    return None if value is None else to_utc(value).isoformat().replace("+00:00", "Z")


def from_graph(value: Any) -> datetime | None:
    """A neo4j.time.DateTime (either backend) as a tz-aware UTC datetime."""
    if value is None:
        return None
    native = value.to_native() if hasattr(value, "to_native") else value
    return to_utc(native)


def from_graph_required(value: Any) -> datetime:
    """`from_graph` for a time every such node has (a memory's created_at, an operation's at)."""
    instant = from_graph(value)
    assert instant is not None, "a time the graph always holds came back null"
    return instant


def from_epoch_ms(value: int) -> datetime:
    """`datetime.epochMillis` from Cypher: far cheaper over Bolt than a DateTime the driver must rebuild."""
    return datetime.fromtimestamp(value / 1000, tz=UTC)
