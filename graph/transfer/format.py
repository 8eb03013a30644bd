"""The export format, line by line (docs/transfer.md): what each kind of line holds, and how graph
records become lines. Pure: no I/O.

Every line is a JSON object with a `kind`. The first is the header, the last the end line; between
them predicates, memories (each with its claim and its sources), edges, conflicts and audit
records, in that order, so a line only ever points at lines before it."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from graph.core.timeutil import from_graph, iso
from graph.core.values import MAX_METADATA_DEPTH, loads_readable
from graph.core.vocab import EDGE_KINDS

FORMAT = "credence-export"
VERSION = 1

# Memory properties, as the graph holds them. `agent` is the header's (an import names its own),
# `claim_key` is derived from the agent and the claim, `tenant_token` from the agent, `stems` from the text, and
# `embedding` from the text by the model (exported only on request: the vectors triple the file).
MEMORY_VALUES = ("id", "text", "memory_type", "category", "importance", "tags", "status", "version", "metadata",
                 "source_type", "corroboration", "reinforcements", "disputes", "trust", "confidence",
                 "quarantine_reason", "quarantine_details", "quarantine_resolution", "session_id", "access_count",
                 "superseded_reason", "sensitivity", "recurrence", "historical", "sentiment", "archived_from",
                 "archived_reason", "thread", "turn")
MEMORY_TIMES = ("created_at", "updated_at", "archived_at", "event_at", "quarantined_at", "quarantine_resolved_at",
                "valid_from", "valid_until", "last_accessed_at", "superseded_at", "closed_at", "asserted_valid_until",
                "effective_from", "expires_at")
MEMORY_DERIVED = ("agent", "claim_key", "tenant_token", "stems", "embedding")
# `locking` is set and removed inside one transaction (a write lock); it is never committed.
TRANSIENT = ("locking", "import_token")

CLAIM_VALUES = ("subject", "predicate", "value", "normalized_value", "exclusive", "scope", "session_id")
CLAIM_TIMES = ("valid_from", "valid_until")
ENTITY_ROLES = ("subject", "value")

# Memory-to-memory edges and the properties each carries (`created_at`, `at`, `resolved_at` are
# times). Every edge says when and by whom it was made (docs/graph.md); SUPERSEDES keeps `at`, its
# key. Lines of older exports that give SUPPORTS or CAUSES only `at` still import (as created_at).
EDGE_COMMON = ("created_at", "created_by", "note")
EDGE_PROPERTIES = {
    "SUPPORTS": EDGE_COMMON,
    "CAUSES": EDGE_COMMON,
    "PROMOTED_FROM": EDGE_COMMON,
    "DIGEST_OF": EDGE_COMMON,
    "OUTCOME_OF": EDGE_COMMON,
    "PROGRESS_ON": EDGE_COMMON,
    "DUPLICATE_OF": EDGE_COMMON,
    "SUPERSEDES": (*EDGE_COMMON, "at", "reason", "new_trust", "old_trust"),
    "CONTRADICTS": (*EDGE_COMMON, "conflict_id", "reason", "resolved_at", "resolution", "resolved_by"),
    "NEXT": EDGE_COMMON,
}
assert set(EDGE_PROPERTIES) == set(EDGE_KINDS), "every edge kind of the vocabulary travels"
CONFLICT_VALUES = ("id", "status", "reason", "rule", "new_trust", "existing_trust", "resolution", "resolved_by")
CONFLICT_TIMES = ("created_at", "resolved_at")
CONFLICT_ROLES = ("new", "existing")
OPERATION_VALUES = ("id", "op", "actor", "before", "after", "redacted", "job_id")
PREDICATE_VALUES = ("predicate", "cardinality", "conflict_policy", "normalize", "dedup_policy")
PREDICATE_TIMES = ("created_at", "updated_at")


def time_text(value: Any) -> str | None:
    return iso(from_graph(value)) if value is not None else None


def _plain(value: Any) -> Any:
    """A property value as JSON: times as ISO-8601 UTC strings, the rest as it is."""
    if hasattr(value, "to_native") or isinstance(value, datetime):
        return time_text(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _json_text(value: str | None) -> Any:
    # Read through the same repair as every other read (graph/core/values.py): metadata an older
    # version stored with lone surrogates, NaN or deep nesting otherwise broke the export mid-stream.
    return loads_readable(value, MAX_METADATA_DEPTH + 2)  # + 2: audit payloads wrap a patch's metadata


def _extra(props: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    """Properties this version does not know (a newer writer's): exported as they are, so nothing is
    lost silently; an import of this version refuses them by name."""
    return {k: _plain(v) for k, v in sorted(props.items()) if k not in known and k not in TRANSIENT}


def header(agent: str, exported_at: datetime, model: str, dimensions: int, embeddings: bool) -> dict[str, Any]:
    return {"kind": "header", "format": FORMAT, "version": VERSION, "agent": agent, "exported_at": iso(exported_at),
            "embedding_model": model, "embedding_dimensions": dimensions, "embeddings": embeddings}


def end(counts: dict[str, int]) -> dict[str, Any]:
    return {"kind": "end", "counts": counts}


def predicate_line(p: dict[str, Any]) -> dict[str, Any]:
    line = {"kind": "predicate", **{k: p.get(k) for k in PREDICATE_VALUES},
            **{k: time_text(p.get(k)) for k in PREDICATE_TIMES}}
    return {**line, **_extra(p, (*PREDICATE_VALUES, *PREDICATE_TIMES, "agent", "key"))}


def memory_line(m: dict[str, Any], claim: dict[str, Any] | None, about: list[dict[str, Any]] | None,
                sources: list[dict[str, Any]] | None) -> dict[str, Any]:
    line: dict[str, Any] = {"kind": "memory"}
    for k in MEMORY_VALUES:
        line[k] = _json_text(m.get(k)) if k == "metadata" else m.get(k)
    line["tags"] = list(line["tags"] or [])
    line.update({k: time_text(m.get(k)) for k in MEMORY_TIMES})
    line["claim"] = None
    if claim:
        line["claim"] = {**{k: claim.get(k) for k in CLAIM_VALUES}, **{k: time_text(claim.get(k)) for k in CLAIM_TIMES},
                         "about": sorted(about or [], key=lambda a: (a["role"], a["name"])),
                         **_extra(claim, (*CLAIM_VALUES, *CLAIM_TIMES, "agent"))}
    line["sources"] = sorted(({"type": s["type"], "ref": s["ref"], "at": time_text(s["at"])} for s in sources or []),
                             key=lambda s: (s["type"], s["ref"]))
    if m.get("embedding") is not None:
        line["embedding"] = [float(x) for x in m["embedding"]]
    return {**line, **_extra(m, (*MEMORY_VALUES, *MEMORY_TIMES, *MEMORY_DERIVED))}


def edge_lines(from_id: str, edges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    lines = []
    for e in edges:
        props = e.get("props") or {}
        line = {"kind": "edge", "type": e["type"], "from": from_id, "to": e["to"],
                **{k: _plain(props.get(k)) for k in EDGE_PROPERTIES.get(e["type"], ())},
                **_extra(props, EDGE_PROPERTIES.get(e["type"], ()))}
        lines.append(line)
    return sorted(lines, key=lambda line: (line["type"], line["to"], line.get("at") or ""))


def conflict_line(c: dict[str, Any], involves: list[dict[str, Any]]) -> dict[str, Any]:
    line = {"kind": "conflict", **{k: c.get(k) for k in CONFLICT_VALUES},
            **{k: time_text(c.get(k)) for k in CONFLICT_TIMES},
            "involves": sorted(({"role": i["role"], "id": i["id"]} for i in involves),
                               key=lambda i: (CONFLICT_ROLES.index(i["role"]) if i["role"] in CONFLICT_ROLES else 9,
                                              i["id"]))}
    return {**line, **_extra(c, (*CONFLICT_VALUES, *CONFLICT_TIMES, "agent"))}


def operation_line(o: dict[str, Any], memory_ids: list[str]) -> dict[str, Any]:
    line = {"kind": "operation", "id": o.get("id"), "op": o.get("op"), "actor": o.get("actor"),
            "at": time_text(o.get("at")),
            # Stored as JSON text (a property cannot hold a map); exported as the objects they are.
            "before": _json_text(o.get("before")), "after": _json_text(o.get("after")),
            "redacted": o.get("redacted"), "memory_ids": sorted(memory_ids),
            # Only when a job made the change, so a file without jobs still imports into older versions.
            **({"job_id": o["job_id"]} if o.get("job_id") is not None else {})}
    return {**line, **_extra(o, (*OPERATION_VALUES, "at", "agent"))}
