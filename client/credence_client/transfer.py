"""`credence export` and `credence import`: a tenant to a JSON Lines file and back (or a mem0
export in), through /v1/export and /v1/import. The format: docs/transfer.md.

The import sends the file in batches (each one transaction on the service) and is resumable: after
every committed batch it notes the next line in a small state file beside the input
(`<file>.import-state`), which a rerun picks up; a failure prints the `--resume-from` line too. The
service keys every line by its exported id and never writes a thing twice, so resuming from an
earlier line (or running the whole import again) is harmless."""
from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from credence_client.endpoints import Call
from credence_client.errors import CredenceAPIError, CredenceError
from credence_client.progress import Bar
from credence_client.sync import Credence

BATCH_LINES = 500
BATCH_BYTES = 900_000  # small transactions, and under any request limit the service may be given (>= 1 MiB)
STATE_SUFFIX = ".import-state"


class TransferError(CredenceError):
    """The file or the stream is not what it must be (the message says what to do)."""


# -- export ---------------------------------------------------------------------------------------

def export(api: Credence, agent: str, out: TextIO, *, embeddings: bool = False, progress: TextIO | None = None
           ) -> dict[str, int]:
    """Streams the tenant's export into `out`, line by line; the counts of its end line. A stream cut
    short (no end line) raises, so a partial file is never taken for a whole one."""
    params = {"agent": agent, **({"embeddings": "true"} if embeddings else {})}
    # Streamed with the client's own connection and headers (same package): the export of a large
    # tenant never sits in memory whole.
    with api._http.stream("GET", "/v1/export", params=params, headers=api._headers) as response:
        if response.status_code >= 400:
            response.read()
            raise CredenceAPIError.of(response)
        last: dict[str, Any] = {}
        lines = 0
        for line in response.iter_lines():
            if not line:
                continue
            out.write(line + "\n")
            lines += 1
            last = json.loads(line) if line.startswith('{"kind":"end"') else {}
            if progress is not None and lines % 1000 == 0:
                progress.write(f"\rexport: {lines} lines")
                progress.flush()
    if last.get("kind") != "end":
        raise TransferError(f"the export stopped after {lines} lines without its end line; run it again")
    if progress is not None:
        progress.write(f"\rexport: {lines} lines, {_counts(last['counts'])}\n")
    return last["counts"]


# -- import ---------------------------------------------------------------------------------------

@dataclass
class ImportSummary:
    lines: int = 0
    batches: int = 0
    created: dict[str, int] = field(default_factory=dict)
    existing: dict[str, int] = field(default_factory=dict)
    started_at_line: int = 1

    def add(self, answer: dict[str, Any], lines: int) -> None:
        self.lines += lines
        self.batches += 1
        for target, counts in ((self.created, answer["created"]), (self.existing, answer["existing"])):
            for kind, n in counts.items():
                target[kind] = target.get(kind, 0) + n


def import_file(api: Credence, agent: str, path: Path, *, resume_from: int | None = None, restart: bool = False,
                progress: TextIO | None = None, batch_lines: int = BATCH_LINES,
                batch_bytes: int = BATCH_BYTES) -> ImportSummary:
    """Imports a Credence export (JSON Lines) or a mem0 export (JSON) into `agent`, batch by batch.
    Raises ImportFailed (with the line to resume from) when a batch is refused or cannot be sent."""
    items, total = _items(path)
    state = StateFile(path, agent)
    start = resume_from or (1 if restart else state.next_line()) or 1
    if start > 1 and progress is not None:
        origin = "--resume-from" if resume_from else f"{state.path.name} (--restart to start over)"
        progress.write(f"import: resuming at line {start}, from {origin}\n")
    summary = ImportSummary(started_at_line=start)
    bar = Bar(progress, "import", "line", total)
    bar.show(start - 1)
    try:
        for first, batch in _batches(items, start, batch_lines, batch_bytes):
            try:
                answer: dict[str, Any] = api.send(Call("POST", "/v1/import",
                                                       params={"agent": agent, "first_line": first}, json=batch))
            except CredenceError as exc:
                raise ImportFailed(exc, path, agent, first) from exc
            summary.add(answer, len(batch))
            state.save(first + len(batch))
            bar.show(first + len(batch) - 1, note=f"created {_counts(summary.created)}")
    finally:
        bar.close()
    state.clear()
    return summary


class ImportFailed(CredenceError):
    def __init__(self, cause: CredenceError, path: Path, agent: str, line: int) -> None:
        super().__init__(f"{cause}; the lines before {line} are imported: resume with "
                         f"`credence import {path} --agent {agent} --resume-from {line}`")
        self.cause, self.line = cause, line


def _items(path: Path) -> tuple[Iterator[tuple[int, Any]], int]:
    """(line number, JSON value) of every non-blank line of a JSON Lines file, or of every item of a
    JSON document (a list, or mem0's {"results": [...]}: item i counts as line i + 1)."""
    with path.open(encoding="utf-8") as f:
        first = next((line for line in f if line.strip()), "")
    try:
        head = json.loads(first) if first.strip() else None
    except json.JSONDecodeError:
        head = None  # a pretty-printed JSON document
    mem0_answer = isinstance(head, dict) and "kind" not in head and isinstance(head.get("results"), list)
    if head is None or isinstance(head, list) or mem0_answer:
        try:
            whole = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise TransferError(f"{path}: neither JSON Lines nor a JSON document (line {exc.lineno}: {exc.msg})") \
                from None
        listed = whole.get("results") if isinstance(whole, dict) else whole
        if not isinstance(listed, list):
            raise TransferError(f"{path}: a JSON document must be a list of lines or mem0's {{\"results\": [...]}}")
        return iter(enumerate(listed, start=1)), len(listed)
    # A first pass: malformed JSON stops the import before it sends a line. Every line, blank ones
    # too, is yielded once, so the count is the last line's number.
    total = sum(1 for _ in _jsonl(path))
    return _jsonl(path), total


def _jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                yield number, None  # counted, never sent
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as exc:
                raise TransferError(f"{path}: line {number} is not valid JSON ({exc.msg}, column {exc.colno})") \
                    from None


def _batches(items: Iterator[tuple[int, Any]], start: int, max_lines: int, max_bytes: int
             ) -> Iterator[tuple[int, list[Any]]]:
    """Batches of consecutive lines (a JSON array numbers its items one by one, so a blank line
    ends a batch), each within `max_lines` and, but for a single huge line, `max_bytes`. A file's
    header goes with its first batch only: the service reads everything else without it."""
    batch: list[Any] = []
    first, size = start, 0
    for number, item in items:
        if number < start:
            continue
        encoded = len(json.dumps(item)) + 2 if item is not None else 0
        if batch and (item is None or len(batch) >= max_lines or size + encoded > max_bytes):
            yield first, batch
            batch, size = [], 0
        if item is None:
            continue
        if not batch:
            first = number
        batch.append(item)
        size += encoded
    if batch:
        yield first, batch


class StateFile:
    """`<file>.import-state`: the next line to send, for one agent and this size of the file."""

    def __init__(self, path: Path, agent: str) -> None:
        self.path = path.with_name(path.name + STATE_SUFFIX)
        self.key = {"agent": agent, "file_size": path.stat().st_size}

    def next_line(self) -> int | None:
        try:
            state = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        if {k: state.get(k) for k in self.key} != self.key or not isinstance(state.get("next_line"), int):
            return None
        return state["next_line"]

    def save(self, next_line: int) -> None:
        with contextlib.suppress(OSError):  # best effort: a read-only folder still imports, resumable by --resume-from
            self.path.write_text(json.dumps({**self.key, "next_line": next_line}))

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "nothing new"


# -- the command line ------------------------------------------------------------------------------

def _export_command(api: Credence, a: Any) -> None:
    progress = None if a.quiet else sys.stderr
    if a.output:
        with open(a.output, "w", encoding="utf-8") as out:
            export(api, a.agent, out, embeddings=a.embeddings, progress=progress)
    else:
        export(api, a.agent, sys.stdout, embeddings=a.embeddings, progress=progress)


def _import_command(api: Credence, a: Any) -> dict[str, Any]:
    try:
        summary = import_file(api, a.agent, Path(a.file), resume_from=a.resume_from, restart=a.restart,
                              progress=None if a.quiet else sys.stderr, batch_lines=a.batch)
    except ImportFailed as exc:
        print(f"\ncredence: the lines before {exc.line} are imported; resume with:\n"
              f"  credence import {a.file} --agent {a.agent} --resume-from {exc.line}", file=sys.stderr)
        raise exc.cause from None
    return asdict(summary)


def register(command: Any) -> None:
    """Adds `export` and `import` to the CLI (`command` is cli.py's sub-command maker)."""
    sub = command("export", _export_command, "stream a tenant to JSON Lines (stdout, or --output)")
    sub.add_argument("--agent", required=True)
    sub.add_argument("--output", "-o", help="a file instead of stdout")
    sub.add_argument("--embeddings", action="store_true", help="include the vectors (large)")
    sub.add_argument("--quiet", "-q", action="store_true", help="no progress line on stderr")
    sub = command("import", _import_command, "load a Credence export (JSON Lines) or a mem0 export (JSON), "
                  "in batches; idempotent and resumable", "file")
    sub.add_argument("--agent", required=True)
    sub.add_argument("--resume-from", type=int, metavar="LINE", help="the line a failed import printed")
    sub.add_argument("--restart", action="store_true", help="ignore the state file and start at line 1")
    sub.add_argument("--batch", type=int, default=BATCH_LINES, help=f"lines per request (default {BATCH_LINES})")
    sub.add_argument("--quiet", "-q", action="store_true", help="no progress line on stderr")
