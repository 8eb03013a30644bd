"""graph/core/values.py: what a stored JSON value may hold, and how reads repair older values."""
from __future__ import annotations

import json
import math

import pytest

from graph.core.errors import InvalidInput
from graph.core.values import check_json, check_unicode, loads_readable, readable_json


def nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize("value, field", [
    ({"k": "\ud800"}, "m.k"),
    ({"\udfff": 1}, "m"),
    ({"a": [1, {"b": "x\udc00"}]}, "m.a[1].b"),
    ({"n": math.nan}, "m.n"),
    ({"n": [math.inf]}, "m.n[0]"),
    ({"n": -math.inf}, "m.n"),
    ({"s": {1, 2}}, "m.s"),
    (nested(33), "m"),
    (nested(5000), "m"),  # walked with its own stack: no RecursionError
])
def test_check_json_names_the_field(value, field):
    with pytest.raises(InvalidInput) as err:
        check_json(value, "m", 32)
    assert err.value.field == field


def test_check_json_takes_what_json_can_carry():
    check_json({"a": [1, 2.5, True, None, "caf\u00e9 \U0001F600"], "b": nested(31)}, "m", 32)


def test_check_unicode():
    assert check_unicode("fine \U0001F600", "f") == "fine \U0001F600"
    with pytest.raises(InvalidInput):
        check_unicode("a\ud83d", "f")


def test_readable_json_repairs_what_older_versions_stored():
    value = {"s": "a\ud800b", "\udfff": [math.nan, math.inf, 1.5], "deep": nested(40)}
    repaired = readable_json(value, 32)
    json.dumps(repaired, allow_nan=False).encode("utf-8")  # serialisable now
    assert repaired["s"] == "a\ufffdb" and repaired["\ufffd"] == [None, None, 1.5]
    depth, node = 0, repaired["deep"]
    while isinstance(node, dict):
        depth, node = depth + 1, node["k"]
    assert depth == 31 and node is None  # cut at the limit: "deep" itself is level 2


@pytest.mark.parametrize("text", [None, "", "{not json", "[1, 2]", '"s"', '{"k":' * 3000 + "1" + "}" * 3000])
def test_loads_readable_gives_none_for_what_is_no_object(text):
    assert loads_readable(text, 32) is None
