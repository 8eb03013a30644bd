"""What a memory may hold and which of its fields a patch may change, checked by the domain itself.

Whoever calls graph/ (the HTTP API, an MCP server, a job) meets the same rules, and a breach is
InvalidInput naming the field, before the model or the database is touched. The request models in
api/schemas are built from these constants, and a unit test holds the API's patch model to
PATCHABLE_FIELDS, so each rule has one home. Pure: no I/O."""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from dateutil.rrule import rrulestr

from graph.core.errors import InvalidInput
from graph.core.tenancy import check_agent
from graph.core.timeutil import check_instant
from graph.core.values import MAX_METADATA_DEPTH, check_json, check_unicode
from graph.core.vocab import MEMORY_TYPES, ON_CONFLICT, SECRET_MODES, SENSITIVITIES, SOURCE_TYPES
from graph.memories.claims import check_claim
from graph.memories.model import MemoryPatch, NewMemory
from graph.memories.threads import check_thread

# The fields a patch may change. Everything else on a memory (agent, id, status, version, trust,
# confidence, sources, feedback counts, embedding, quarantine, claim keys) belongs to the service
# and the belief rules, never to the caller.
PATCHABLE_FIELDS = ("text", "memory_type", "category", "importance", "tags", "event_at", "metadata", "sensitivity",
                    "effective_from", "expires_at", "recurrence", "historical")
# The others may be cleared with None.
NOT_NULL_ON_PATCH = ("text", "memory_type", "importance", "tags", "sensitivity", "historical")
# The patchable fields stored as datetimes (memories/update converts each one).
PATCH_INSTANTS = ("event_at", "effective_from", "expires_at")

MAX_CATEGORY_CHARS = 100
MAX_TAGS = 64
MAX_TAG_CHARS = 64
MAX_METADATA_BYTES = 16_384
MAX_VERSION = 2**63 - 1  # the graph's integers are 64-bit
MAX_REF_CHARS = 500
MAX_SUSPICIOUS_DETAILS_CHARS = 2_000
MAX_RECURRENCE_CHARS = 500

def check_text(text: Any, field: str, max_chars: int) -> str:
    if not isinstance(text, str):
        raise InvalidInput(field, "must be a string")
    if not text.strip():
        raise InvalidInput(field, "must contain non-whitespace text")
    if len(text) > max_chars:
        raise InvalidInput(field, f"is {len(text)} characters; the limit is {max_chars}")
    return check_unicode(text, field)


def check_memory_type(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in MEMORY_TYPES:
        raise InvalidInput(field, f"must be one of {', '.join(MEMORY_TYPES)}")
    return value


def check_importance(value: Any, field: str) -> float:
    # bool is an int in Python, and "0.5" is not a number: the API's StrictFloat refuses both.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidInput(field, "must be a number")
    if not 0.0 <= value <= 1.0:
        raise InvalidInput(field, "must be between 0 and 1")
    return float(value)


def check_category(value: Any, field: str) -> str | None:
    return check_optional_str(value, field, MAX_CATEGORY_CHARS)


def check_tags(value: Any, field: str) -> list[str]:
    """Each tag is stripped (as the API does) and must then hold 1..MAX_TAG_CHARS characters;
    repeats collapse, first occurrence first."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple)):
        raise InvalidInput(field, "must be a list of strings")
    if len(value) > MAX_TAGS:
        raise InvalidInput(field, f"holds {len(value)} tags; the limit is {MAX_TAGS}")
    tags = []
    for i, tag in enumerate(value):
        if not isinstance(tag, str):
            raise InvalidInput(f"{field}[{i}]", "must be a string")
        tag = check_unicode(tag.strip(), f"{field}[{i}]")
        if not 1 <= len(tag) <= MAX_TAG_CHARS:
            raise InvalidInput(f"{field}[{i}]", f"must hold 1 to {MAX_TAG_CHARS} characters besides surrounding spaces")
        tags.append(tag)
    return list(dict.fromkeys(tags))


def check_metadata(value: Any, field: str) -> dict[str, Any] | None:
    if value is not None:
        metadata_json(value, field)
    return value


def metadata_json(value: Any, field: str) -> str | None:
    """Metadata as stored: a JSON object string (Neo4j properties cannot hold maps). Nesting,
    Unicode and numbers are checked first: what a response could not carry is never stored."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidInput(field, "must be a JSON object")
    check_json(value, field, MAX_METADATA_DEPTH)
    try:
        encoded = json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(field, f"must hold JSON values only ({exc})") from None
    if len(encoded.encode()) > MAX_METADATA_BYTES:
        raise InvalidInput(field, f"is larger than {MAX_METADATA_BYTES} bytes as JSON")
    return encoded


def check_time(value: Any, field: str) -> datetime | None:
    check_instant(value, field)
    return value


def check_sensitivity(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in SENSITIVITIES:
        raise InvalidInput(field, f"must be one of {', '.join(SENSITIVITIES)}")
    return value


def check_recurrence(value: Any, field: str) -> str | None:
    """An RFC 5545 RRULE without its "RRULE:" prefix (FREQ=WEEKLY;BYDAY=MO), parsed by dateutil."""
    text = check_optional_str(value, field, MAX_RECURRENCE_CHARS)
    if text is None:
        return None
    try:
        rrulestr(text, ignoretz=True)
    except (ValueError, TypeError) as exc:
        raise InvalidInput(field, f"must be an RFC 5545 recurrence rule such as FREQ=WEEKLY;BYDAY=MO ({exc})") from None
    return text


def check_historical(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(field, "must be true or false")
    return value


def check_window(effective_from: datetime | None, expires_at: datetime | None, where: str) -> None:
    """A memory that expires before it takes effect would never be shown."""
    if effective_from is not None and expires_at is not None and expires_at <= effective_from:
        raise InvalidInput(f"{where}expires_at", "must be later than effective_from")


def check_optional_str(value: Any, field: str, max_chars: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(field, "must be a string or null")
    if len(value) > max_chars:
        raise InvalidInput(field, f"is {len(value)} characters; the limit is {max_chars}")
    return check_unicode(value, field)


def check_new(item: NewMemory, where: str, max_text_chars: int) -> dict[str, Any]:
    """Every rule of a new memory; `where` prefixes the field names ("memories[3]." or "").
    Returns the values as stored: tags normalised, metadata as its JSON string."""
    check_agent(item.agent, f"{where}agent")
    check_text(item.text, f"{where}text", max_text_chars)
    check_memory_type(item.memory_type, f"{where}memory_type")
    check_category(item.category, f"{where}category")
    importance = check_importance(item.importance, f"{where}importance")
    tags = check_tags(item.tags, f"{where}tags")
    check_time(item.event_at, f"{where}event_at")
    check_sensitivity(item.sensitivity, f"{where}sensitivity")
    effective_from = check_instant(item.effective_from, f"{where}effective_from")
    expires_at = check_instant(item.expires_at, f"{where}expires_at")
    check_window(effective_from, expires_at, where)
    check_recurrence(item.recurrence, f"{where}recurrence")
    check_historical(item.historical, f"{where}historical")
    check_thread(item.thread, f"{where}thread")
    metadata = metadata_json(item.metadata, f"{where}metadata")
    if item.provenance.source not in SOURCE_TYPES:
        raise InvalidInput(f"{where}provenance.source", f"must be one of {', '.join(SOURCE_TYPES)}")
    check_optional_str(item.provenance.ref, f"{where}provenance.ref", MAX_REF_CHARS)
    check_optional_str(item.suspicious, f"{where}quarantine.details", MAX_SUSPICIOUS_DETAILS_CHARS)
    if item.on_conflict not in ON_CONFLICT:
        raise InvalidInput(f"{where}on_conflict", f"must be one of {', '.join(ON_CONFLICT)}")
    if item.secrets not in SECRET_MODES:
        raise InvalidInput(f"{where}secrets", f"must be one of {', '.join(SECRET_MODES)}")
    if item.claim is not None:
        check_claim(item.claim, f"{where}claim")
    if isinstance(item.supersedes, (str, bytes)) or not isinstance(item.supersedes, (tuple, list)) \
            or not all(isinstance(i, str) and 0 < len(i) <= 100 for i in item.supersedes):
        raise InvalidInput(f"{where}supersedes", "must be a list of memory ids")
    return {"importance": importance, "tags": tags, "metadata": metadata}


_PATCH_CHECKS = {
    "memory_type": check_memory_type,
    "category": check_category,
    "importance": check_importance,
    "tags": check_tags,
    "event_at": check_time,
    "metadata": check_metadata,
    "sensitivity": check_sensitivity,
    "effective_from": check_time,
    "expires_at": check_time,
    "recurrence": check_recurrence,
    "historical": check_historical,
}


def check_patch(patch: MemoryPatch, max_text_chars: int) -> dict[str, Any]:
    """The patch's changes, checked and normalised (tags stripped and deduplicated, importance a
    float). A field outside PATCHABLE_FIELDS is refused by name: a patch can never move a memory to
    another tenant, forge its trust or status, or rewrite its identity, version or embedding."""
    changes = patch.changes
    if not isinstance(changes, Mapping):
        raise InvalidInput("changes", "must map field names to new values")
    refused = [name for name in changes if name not in PATCHABLE_FIELDS]
    if refused:
        raise InvalidInput(str(refused[0]), f"cannot be changed; a patch may change only {', '.join(PATCHABLE_FIELDS)}")
    if not changes:
        raise InvalidInput("changes", "must name at least one field to change")
    ev = patch.expected_version
    if ev is not None and (isinstance(ev, bool) or not isinstance(ev, int) or not 1 <= ev <= MAX_VERSION):
        raise InvalidInput("expected_version", f"must be an integer from 1 to {MAX_VERSION}, or null")
    clean: dict[str, Any] = {}
    for name, value in changes.items():
        if value is None and name in NOT_NULL_ON_PATCH:
            raise InvalidInput(name, "cannot be null")
        if name == "text":
            clean[name] = check_text(value, name, max_text_chars)
        else:
            clean[name] = _PATCH_CHECKS[name](value, name)
    return clean
