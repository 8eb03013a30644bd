"""Import lines, checked: each becomes a row ready for the import queries, or InvalidInput naming
the line and the field to fix. Pure: no I/O. The format is graph/transfer/format.py's."""
from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, overload

# The audit trail's own encoding, so an imported record is stored byte for byte as the service stores one.
from graph.audit import MAX_JOB_ID_CHARS, audit_json
from graph.beliefs.trust import compute_trust
from graph.core.errors import InvalidInput
from graph.core.keys import predicate_key, slot_key
from graph.core.tenant_token import tenant_token
from graph.core.timeutil import iso, to_utc
from graph.core.vocab import (
    ACTIVE,
    AUDIT_OPS,
    CARDINALITIES,
    CONFLICT_POLICIES,
    CONFLICT_STATUSES,
    DEDUP_POLICIES,
    DEFAULT_SENSITIVITY,
    DEFAULT_SOURCE,
    NORMALIZER_NAMES,
    SENSITIVITIES,
    SOURCE_TYPES,
    STATUSES,
)
from graph.language import stems
from graph.memories.claims import check_claim
from graph.memories.model import Claim, SecretSpan
from graph.memories.rules import (
    MAX_REF_CHARS,
    check_category,
    check_importance,
    check_memory_type,
    check_optional_str,
    check_recurrence,
    check_tags,
    check_text,
    metadata_json,
)
from graph.memories.secrets import refuse, screen_json
from graph.memories.sentiment import sentiment_of
from graph.memories.threads import check_thread
from graph.transfer import format as fmt
from graph.transfer import mem0

MAX_SHORT = 200       # op names, actors, rules, reasons of conflicts and the like
MAX_NOTE = 2_000      # notes, reasons and quarantine details, as the API's limits
MAX_ENTITY = 1_000    # an entity is a claim's subject or value


@dataclass
class Batch:
    """One import request's lines, checked and grouped by kind; each row keeps its line number."""
    predicates: list[dict[str, Any]] = field(default_factory=list)
    memories: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    operations: list[dict[str, Any]] = field(default_factory=list)
    lines: int = 0


def decode(body: bytes, first_line: int) -> list[tuple[int, Any]]:
    """The items of a request body with their line numbers: JSON Lines (blank lines skipped but
    counted), a JSON array (item i is line first_line + i), or mem0's get_all answer
    ({"results": [...]}, numbered the same way)."""
    try:
        text = body.decode("utf-8", errors="strict") if isinstance(body, bytes) else body
    except UnicodeDecodeError as exc:
        raise InvalidInput("body", f"is not UTF-8 (byte {exc.start})") from None
    stripped = text.lstrip()
    if stripped.startswith("["):
        return list(enumerate(_json(stripped, first_line), start=first_line))
    if stripped.startswith("{") and "\n" not in stripped.rstrip():
        whole = _json(stripped, first_line)
        if isinstance(whole, dict) and isinstance(whole.get("results"), list) and "kind" not in whole:
            return list(enumerate(whole["results"], start=first_line))
    items = []
    for number, raw in enumerate(text.splitlines(), start=first_line):
        if raw.strip():
            items.append((number, _json(raw, number)))
    return items


def _json(text: str, line: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"line {line + exc.lineno - 1}",
                           f"is not valid JSON ({exc.msg}, column {exc.colno})") from None
    except RecursionError:  # the parser's own nesting limit (about 1,000 levels): was a 500
        raise InvalidInput(f"line {line}", "nests too deeply to read") from None


# The fields of an import line that hold what people wrote, where a secret may hide (graph/memories/secrets.py):
# a mem0 item's memory and metadata, a memory's words and claim, notes and reasons, audit payloads.
SCREENED = {"mem0": ("memory", "metadata", "categories"),
            "memory": ("text", "category", "tags", "metadata", "claim", "quarantine_details", "sources"),
            "edge": ("note", "reason"), "conflict": ("reason",), "operation": ("before", "after")}


def screen(items: list[tuple[int, Any]], mode: str) -> tuple[list[tuple[int, Any]], list[SecretSpan]]:
    """The lines as they will be parsed and the secrets found in them, each named "line N: kind.field".
    In refuse mode any secret refuses the whole request, listing every one; in redact mode each is
    replaced by [REDACTED:<kind>]. Runs before the lines are parsed, embedded, written or logged."""
    out, spans = [], []
    for number, item in items:
        if not isinstance(item, dict):
            out.append((number, item))
            continue
        kind = item.get("kind") if "kind" in item else ("mem0" if "memory" in item else None)
        clean = dict(item)
        for name in SCREENED.get(kind, ()) if isinstance(kind, str) else ():
            if name in item:
                clean[name], found = screen_json(item[name], f"line {number}: {kind}.{name}")
                spans += found
        out.append((number, clean))
    refuse(spans, mode)
    return out, spans


def parse(items: list[tuple[int, Any]], agent: str, *, max_text_chars: int, actor: str, now: datetime) -> Batch:
    batch = Batch(lines=len(items))
    for number, item in items:
        try:
            _parse_one(batch, item, agent, max_text_chars, actor, now, number)
        except InvalidInput as exc:
            raise InvalidInput(f"line {number}: {exc.field}", exc.message) from None
    return batch


def _parse_one(batch: Batch, item: Any, agent: str, max_text_chars: int, actor: str, now: datetime,
               number: int) -> None:
    if not isinstance(item, dict):
        raise InvalidInput("line", "must be a JSON object")
    if "kind" not in item and "memory" in item:
        for line in mem0.to_lines(item, agent, actor, now):
            _parse_one(batch, line, agent, max_text_chars, actor, now, number)
        return
    kind = item.get("kind")
    if kind == "header":
        _header(item)
    elif kind == "end":
        pass
    elif kind == "predicate":
        batch.predicates.append({"line": number, **_predicate(item, agent)})
    elif kind == "memory":
        batch.memories.append({"line": number, **_memory(item, agent, max_text_chars)})
    elif kind == "edge":
        batch.edges.append({"line": number, **_edge(item)})
    elif kind == "conflict":
        batch.conflicts.append({"line": number, **_conflict(item)})
    elif kind == "operation":
        batch.operations.append({"line": number, **_operation(item)})
    else:
        raise InvalidInput("kind", "must be one of header, predicate, memory, edge, conflict, operation, end "
                                   "(or the line must be a mem0 memory, with `memory` and `id`)")


# -- field checks ---------------------------------------------------------------------------------

def _known(item: dict[str, Any], kind: str, allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(item) - {"kind", *allowed})
    if unknown:
        raise InvalidInput(f"{kind}.{unknown[0]}", f"is not a field of a {kind} line in format version {fmt.VERSION}")


def _uuid(value: Any, name: str) -> str:
    try:
        if isinstance(value, str) and str(uuid.UUID(value)) == value:
            return value
    except ValueError:
        pass
    raise InvalidInput(name, "must be a UUID in its canonical lower-case form")


def _time(value: Any, name: str, *, required: bool = False) -> str | None:
    if value is None:
        if required:
            raise InvalidInput(name, "is required (an ISO-8601 time)")
        return None
    try:
        return iso(to_utc(datetime.fromisoformat(value)))
    except (TypeError, ValueError):
        raise InvalidInput(name, "must be an ISO-8601 time") from None


def _int(value: Any, name: str, *, minimum: int = 0, default: int | None = None) -> int | None:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidInput(name, f"must be an integer of at least {minimum}")
    return value


def _unit(value: Any, name: str, *, default: float | None = None) -> float | None:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0.0 <= value <= 1.0:
        raise InvalidInput(name, "must be a number between 0 and 1")
    return float(value)


@overload
def _choice(value: Any, name: str, choices: tuple[str, ...], *, default: str) -> str: ...
@overload
def _choice(value: Any, name: str, choices: tuple[str, ...], *, default: None = None) -> str | None: ...
def _choice(value: Any, name: str, choices: tuple[str, ...], *, default: str | None = None) -> str | None:
    if value is None:
        return default
    if value not in choices:
        raise InvalidInput(name, f"must be one of {', '.join(choices)}")
    return value


def _text(value: Any, name: str, limit: int, *, required: bool = False) -> str | None:
    if required and (not isinstance(value, str) or not value.strip()):
        raise InvalidInput(name, "is required (a non-empty string)")
    return check_optional_str(value, name, limit)


def _bool(value: Any, name: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise InvalidInput(name, "must be true, false or null")
    return value


# -- kinds ----------------------------------------------------------------------------------------

def _header(item: dict[str, Any]) -> None:
    if item.get("format") != fmt.FORMAT:
        raise InvalidInput("header.format", f"must be {fmt.FORMAT!r}")
    if item.get("version") != fmt.VERSION:
        raise InvalidInput("header.version", f"is {item.get('version')!r}; this service reads version {fmt.VERSION}")


def _predicate(item: dict[str, Any], agent: str) -> dict[str, Any]:
    _known(item, "predicate", (*fmt.PREDICATE_VALUES, *fmt.PREDICATE_TIMES))
    name = _text(item.get("predicate"), "predicate.predicate", 100, required=True)
    assert name is not None  # required
    props = {"predicate": name,
             "cardinality": _choice(item.get("cardinality"), "predicate.cardinality", CARDINALITIES,
                                    default=CARDINALITIES[0]),
             "conflict_policy": _choice(item.get("conflict_policy"), "predicate.conflict_policy", CONFLICT_POLICIES,
                                        default=CONFLICT_POLICIES[0]),
             "normalize": _choice(item.get("normalize"), "predicate.normalize", NORMALIZER_NAMES,
                                  default=NORMALIZER_NAMES[0]),
             "dedup_policy": _choice(item.get("dedup_policy"), "predicate.dedup_policy", DEDUP_POLICIES,
                                     default=DEDUP_POLICIES[0])}
    created = _time(item.get("created_at"), "predicate.created_at")
    return {"key": predicate_key(agent, name), "props": props, "created_at": created,
            "updated_at": _time(item.get("updated_at"), "predicate.updated_at") or created}


def _memory(item: dict[str, Any], agent: str, max_text_chars: int) -> dict[str, Any]:
    _known(item, "memory", (*fmt.MEMORY_VALUES, *fmt.MEMORY_TIMES, "claim", "sources", "embedding"))
    source = _choice(item.get("source_type"), "memory.source_type", SOURCE_TYPES, default=DEFAULT_SOURCE)
    trust = _unit(item.get("trust"), "memory.trust", default=compute_trust(source).trust)
    props: dict[str, Any] = {
        "id": _uuid(item.get("id"), "memory.id"),
        "text": check_text(item.get("text"), "memory.text", max_text_chars),
        "tenant_token": tenant_token(agent),  # of the tenant imported into, never the file's
        "stems": stems.stored(item.get("text") or ""),  # what keyword search matches: derived, never the file's
        "memory_type": check_memory_type(item.get("memory_type", "fact"), "memory.memory_type"),
        "category": check_category(item.get("category"), "memory.category"),
        "importance": check_importance(item.get("importance", 0.5), "memory.importance"),
        "tags": check_tags(item.get("tags") or [], "memory.tags"),
        "status": _choice(item.get("status"), "memory.status", STATUSES, default=ACTIVE),
        "version": _int(item.get("version"), "memory.version", minimum=1, default=1),
        "metadata": metadata_json(item.get("metadata"), "memory.metadata"),
        "source_type": source,
        "corroboration": _int(item.get("corroboration"), "memory.corroboration", minimum=1, default=1),
        "reinforcements": _int(item.get("reinforcements"), "memory.reinforcements", default=0),
        "disputes": _int(item.get("disputes"), "memory.disputes", default=0),
        "trust": trust,
        "confidence": _unit(item.get("confidence"), "memory.confidence", default=trust),
        "quarantine_reason": _text(item.get("quarantine_reason"), "memory.quarantine_reason", MAX_SHORT),
        "quarantine_details": _text(item.get("quarantine_details"), "memory.quarantine_details", MAX_NOTE),
        "quarantine_resolution": _text(item.get("quarantine_resolution"), "memory.quarantine_resolution", MAX_SHORT),
        "session_id": _text(item.get("session_id"), "memory.session_id", MAX_SHORT),
        "access_count": _int(item.get("access_count"), "memory.access_count"),
        "superseded_reason": _text(item.get("superseded_reason"), "memory.superseded_reason", MAX_SHORT),
        "sensitivity": _choice(item.get("sensitivity"), "memory.sensitivity", SENSITIVITIES,
                               default=DEFAULT_SENSITIVITY),
        "recurrence": check_recurrence(item.get("recurrence"), "memory.recurrence"),
        "historical": bool(_bool(item.get("historical"), "memory.historical")),
        # What an archived memory returns to on a restore, and why it was archived (docs/maintenance.md).
        "archived_from": _choice(item.get("archived_from"), "memory.archived_from", STATUSES),
        "archived_reason": _text(item.get("archived_reason"), "memory.archived_reason", MAX_SHORT),
        # Older exports carry no sentiment: it is scored from the text, as on every write.
        "sentiment": sentiment_of(item.get("text") or ""),
        "thread": check_thread(item.get("thread"), "memory.thread"),
        "turn": _int(item.get("turn"), "memory.turn", default=None),
    }
    times = {k: _time(item.get(k), f"memory.{k}", required=k == "created_at") for k in fmt.MEMORY_TIMES}
    times["updated_at"] = times["updated_at"] or times["created_at"]
    claim, about = _claim(item.get("claim"))
    if claim is not None:
        props["claim_key"] = slot_key(agent, claim["subject"], claim["predicate"])
    sources = item.get("sources")
    if sources is None:
        sources = [{"type": source, "ref": "", "at": times["created_at"]}]
    if not isinstance(sources, list):
        raise InvalidInput("memory.sources", "must be a list")
    return {"id": props["id"], "props": props, "times": times, "claim": claim, "about": about,
            "sources": [_source(s, f"memory.sources[{i}]") for i, s in enumerate(sources)]}


def _claim(value: Any) -> tuple[dict[str, Any] | None, list[dict[str, str | None]]]:
    if value is None:
        return None, []
    if not isinstance(value, dict):
        raise InvalidInput("memory.claim", "must be an object or null")
    _known(value, "memory.claim", (*fmt.CLAIM_VALUES, *fmt.CLAIM_TIMES, "about"))
    times = {k: _time(value.get(k), f"memory.claim.{k}") for k in fmt.CLAIM_TIMES}
    raw: Any = value  # unchecked JSON until check_claim below, which names any field of the wrong type
    claim = Claim(subject=raw.get("subject"), predicate=raw.get("predicate"), value=raw.get("value"),
                  exclusive=raw.get("exclusive", True), scope=raw.get("scope", "global"),
                  session_id=raw.get("session_id"),
                  valid_from=datetime.fromisoformat(times["valid_from"]) if times["valid_from"] else None,
                  valid_until=datetime.fromisoformat(times["valid_until"]) if times["valid_until"] else None)
    check_claim(claim, "memory.claim")
    normalized = _text(value.get("normalized_value", claim.value), "memory.claim.normalized_value", MAX_ENTITY)
    about = value.get("about") or []
    if not isinstance(about, list):
        raise InvalidInput("memory.claim.about", "must be a list of {role, name}")
    checked = []
    for i, a in enumerate(about):
        where = f"memory.claim.about[{i}]"
        if not isinstance(a, dict) or set(a) != {"role", "name"}:
            raise InvalidInput(where, "must be an object with exactly role and name")
        checked.append({"role": _choice(a["role"], f"{where}.role", fmt.ENTITY_ROLES),
                        "name": _text(a["name"], f"{where}.name", MAX_ENTITY, required=True)})
    props: dict[str, Any] = {"subject": claim.subject, "predicate": claim.predicate, "value": claim.value,
                             "normalized_value": normalized, "exclusive": claim.exclusive, "scope": claim.scope,
                             "session_id": claim.session_id, **times}
    return props, checked


def _source(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) - {"type", "ref", "at"}:
        raise InvalidInput(where, "must be an object with type, ref and at")
    ref = check_optional_str(value.get("ref"), f"{where}.ref", MAX_REF_CHARS) or ""
    return {"type": _choice(value.get("type"), f"{where}.type", SOURCE_TYPES, default=DEFAULT_SOURCE), "ref": ref,
            "at": _time(value.get("at"), f"{where}.at", required=True)}


def _edge(item: dict[str, Any]) -> dict[str, Any]:
    kind = item.get("type")
    if kind not in fmt.EDGE_PROPERTIES:
        raise InvalidInput("edge.type", f"must be one of {', '.join(fmt.EDGE_PROPERTIES)}")
    _known(item, "edge", ("type", "from", "to", "at", *fmt.EDGE_PROPERTIES[kind]))
    at = _time(item.get("at"), "edge.at", required=kind == "SUPERSEDES")
    row = {"type": kind, "from": _uuid(item.get("from"), "edge.from"), "to": _uuid(item.get("to"), "edge.to"),
           "at": at, "created_at": _time(item.get("created_at"), "edge.created_at") or at,
           "created_by": _text(item.get("created_by"), "edge.created_by", MAX_SHORT),
           "note": _text(item.get("note"), "edge.note", MAX_NOTE),
           "reason": _text(item.get("reason"), "edge.reason", MAX_NOTE),
           "new_trust": _unit(item.get("new_trust"), "edge.new_trust"),
           "old_trust": _unit(item.get("old_trust"), "edge.old_trust"),
           "conflict_id": _text(item.get("conflict_id"), "edge.conflict_id", MAX_SHORT),
           "resolved_at": _time(item.get("resolved_at"), "edge.resolved_at"),
           "resolution": _text(item.get("resolution"), "edge.resolution", MAX_SHORT),
           "resolved_by": _text(item.get("resolved_by"), "edge.resolved_by", MAX_SHORT)}
    if row["from"] == row["to"]:
        raise InvalidInput("edge.to", "must be another memory than edge.from")
    return row


def _conflict(item: dict[str, Any]) -> dict[str, Any]:
    _known(item, "conflict", (*fmt.CONFLICT_VALUES, *fmt.CONFLICT_TIMES, "involves"))
    props = {"id": _uuid(item.get("id"), "conflict.id"),
             "status": _choice(item.get("status"), "conflict.status", CONFLICT_STATUSES, default="pending"),
             "reason": _text(item.get("reason"), "conflict.reason", MAX_SHORT),
             "rule": _text(item.get("rule"), "conflict.rule", MAX_SHORT),
             "new_trust": _unit(item.get("new_trust"), "conflict.new_trust"),
             "existing_trust": _unit(item.get("existing_trust"), "conflict.existing_trust"),
             "resolution": _text(item.get("resolution"), "conflict.resolution", MAX_SHORT),
             "resolved_by": _text(item.get("resolved_by"), "conflict.resolved_by", MAX_SHORT)}
    involves = item.get("involves")
    if not isinstance(involves, list) or not 1 <= len(involves) <= 2:
        raise InvalidInput("conflict.involves", "must list the one or two memories involved, as {role, id}")
    checked = []
    for i, inv in enumerate(involves):
        where = f"conflict.involves[{i}]"
        if not isinstance(inv, dict) or set(inv) != {"role", "id"}:
            raise InvalidInput(where, "must be an object with exactly role and id")
        checked.append({"role": _choice(inv["role"], f"{where}.role", fmt.CONFLICT_ROLES),
                        "memory_id": _uuid(inv["id"], f"{where}.id")})
    return {"id": props["id"], "props": props, "involves": checked,
            "created_at": _time(item.get("created_at"), "conflict.created_at", required=True),
            "resolved_at": _time(item.get("resolved_at"), "conflict.resolved_at")}


def _operation(item: dict[str, Any]) -> dict[str, Any]:
    _known(item, "operation", (*fmt.OPERATION_VALUES, "at", "memory_ids"))
    for name in ("before", "after"):
        if item.get(name) is not None and not isinstance(item[name], dict):
            raise InvalidInput(f"operation.{name}", "must be an object or null")
    memory_ids = item.get("memory_ids") or []
    if not isinstance(memory_ids, list):
        raise InvalidInput("operation.memory_ids", "must be a list of memory ids")
    props = {"id": _uuid(item.get("id"), "operation.id"),
             # One vocabulary of ops (graph/core/vocab.py), so the audit query's op filter sees every record.
             "op": _choice(_text(item.get("op"), "operation.op", MAX_SHORT, required=True), "operation.op", AUDIT_OPS),
             "actor": _text(item.get("actor"), "operation.actor", MAX_SHORT, required=True),
             # Stored as the audit trail stores them: JSON text (graph/audit/records.py).
             "before": audit_json(item.get("before")), "after": audit_json(item.get("after")),
             "redacted": _bool(item.get("redacted"), "operation.redacted"),
             # The maintenance job that made the change; absent from exports of older versions.
             "job_id": _text(item.get("job_id"), "operation.job_id", MAX_JOB_ID_CHARS)}
    return {"id": props["id"], "props": props, "at": _time(item.get("at"), "operation.at", required=True),
            "memory_ids": list(dict.fromkeys(_uuid(m, f"operation.memory_ids[{i}]") for i, m in enumerate(memory_ids)))}
