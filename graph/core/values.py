"""What a stored string or JSON value may hold, and how a read survives one that does not. Pure.

JSON lets a client send what no response can carry: a lone surrogate (`"\\ud800"` decodes to a
Python str that UTF-8 cannot encode), `NaN` and `Infinity` (Python's parser accepts them; JSON has
no such numbers), and nesting deeper than serialisers follow. Stored, any of them made every later
read of the tenant fail, so writes refuse them (InvalidInput naming the field) and reads repair
whatever an older version stored (`readable_json`)."""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from graph.core.errors import InvalidInput

REPLACEMENT = "\ufffd"


MAX_METADATA_DEPTH = 32  # levels of nested objects and lists; what every JSON tool reads back

def is_valid_unicode(text: str) -> bool:
    """False when the string holds a surrogate code point (lone, or a pair Python never joined)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_unicode(value: str, field: str) -> str:
    if not is_valid_unicode(value):
        raise InvalidInput(field, "is not valid Unicode (it holds a lone surrogate such as \\ud800)")
    return value


def check_json(value: Any, field: str, max_depth: int) -> None:
    """JSON objects, lists, valid Unicode strings, finite numbers, booleans and null, nested at most
    `max_depth` levels of objects and lists. Walks with its own stack: depth never recurses."""
    stack: list[tuple[Any, str, int]] = [(value, field, 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, (Mapping, list, tuple)):
            if depth > max_depth:
                raise InvalidInput(field, f"is nested more than {max_depth} levels deep")
            if isinstance(item, Mapping):
                for key, child in item.items():
                    if not isinstance(key, str):
                        raise InvalidInput(path, "must have string keys")
                    if not is_valid_unicode(key):
                        raise InvalidInput(path, "holds a key that is not valid Unicode (a lone surrogate)")
                    stack.append((child, f"{path}.{key}", depth + 1))
            else:
                stack.extend((child, f"{path}[{i}]", depth + 1) for i, child in enumerate(item))
        elif isinstance(item, str):
            check_unicode(item, path)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise InvalidInput(path, "must be a finite number (JSON has no NaN or Infinity)")
        elif item is not None and not isinstance(item, (bool, int)):
            raise InvalidInput(path, "must hold JSON values only")


def readable_json(value: Any, max_depth: int) -> Any:
    """A copy every serialiser can write: surrogates become U+FFFD, NaN and Infinity null, and
    anything nested deeper than `max_depth` null. For values stored before the write rules."""
    def repair(item: Any, depth: int) -> Any:
        if isinstance(item, str):
            return _replace_surrogates(item)
        if isinstance(item, float):
            return item if math.isfinite(item) else None
        if isinstance(item, Mapping):
            if depth > max_depth:
                return None
            return {repair(k, depth) if isinstance(k, str) else str(k): repair(v, depth + 1) for k, v in item.items()}
        if isinstance(item, list):
            return None if depth > max_depth else [repair(v, depth + 1) for v in item]
        return item
    return repair(value, 1)


def loads_readable(text: str | None, max_depth: int) -> dict[str, Any] | None:
    """A stored JSON object string, repaired for reading; None when it cannot be read as an object
    (not JSON, not an object, or nested too deep for the parser itself)."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return readable_json(value, max_depth) if isinstance(value, dict) else None


def _replace_surrogates(text: str) -> str:
    if is_valid_unicode(text):
        return text
    return "".join(REPLACEMENT if "\ud800" <= ch <= "\udfff" else ch for ch in text)
