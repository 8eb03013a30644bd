"""`credence`: the HTTP API from a shell. Prints JSON (a context prints its text); exit status 1
when the service rejects the call, 3 when it cannot be reached, 2 for a malformed command line.

    credence remember agent-1 "The user prefers dark mode" --type preference
    credence ingest agent-1 chat.txt            # each line a user message (or a JSON message object)
    echo "We finally moved to Lisbon" | credence ingest agent-1 --dry-run
    credence search agent-1 "UI theme" --explain
    credence context agent-1 "what does the user like?" --max-tokens 300
    credence ask agent-1 "where did I use to live?"
    credence audit agent-1 --op update --op hard_delete --after 2026-01-01T00:00:00Z
    credence about agent-1 "Acme Corp"
    credence path agent-1 Dana Seattle
    credence consolidate agent-1 --dry-run
    credence export --agent agent-1 > agent-1.jsonl
    credence import agent-1.jsonl --agent agent-1
    credence enqueue agent-1 expire && credence jobs agent-1 --status running
    credence job agent-1 0b6e4a31-2f0b-4d6e-9c1e-6f1c3b2a7d4e --wait
    credence jobs _system --kind decay          # the scheduler's jobs (administrator key)
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from credence_client import transfer
from credence_client.endpoints import set_only
from credence_client.errors import CredenceAPIError, CredenceError, ServiceUnreachable
from credence_client.models import ENTITY_KINDS, Job
from credence_client.progress import Bar
from credence_client.sync import Credence

Handler = Callable[[Credence, argparse.Namespace], Any]


def _remember(api: Credence, a: argparse.Namespace) -> Any:
    claim = dict(zip(("subject", "predicate", "value"), a.claim, strict=True)) if a.claim else None
    provenance = set_only(source=a.source, ref=a.ref) or None
    return api.remember(a.agent, a.text, **set_only(memory_type=a.type, tags=a.tag, importance=a.importance,
                                                    category=a.category, provenance=provenance, claim=claim))


INGEST_BATCH = 100  # messages per request: the service's default CREDENCE_INGEST_MAX_MESSAGES
INGEST_CONTEXT = 20  # earlier messages sent along with the next batch, for "it", "she", "forget that"


def _ingest(api: Credence, a: argparse.Namespace) -> Any:
    """Messages from a file or stdin: each line a user message, or a JSON object {role, text, at,
    source, ref}; --whole sends the input as one message. Batches of --batch messages, each with
    the messages before it as context. Prints the answer (a list of answers for several batches)."""
    try:
        if a.file in (None, "-"):
            raw = sys.stdin.read()
        else:
            with open(a.file, encoding="utf-8") as f:
                raw = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CredenceError(f"cannot read {a.file}: {exc}") from exc
    messages: list[str | dict[str, Any]] = [raw.strip()] if a.whole and raw.strip() else [
        _message(line) for line in raw.splitlines() if line.strip()]
    if not messages:
        raise CredenceError("nothing to ingest: the input holds no message")
    answers = []
    for start in range(0, len(messages), a.batch):
        context = messages[max(0, start - INGEST_CONTEXT):start]
        answers.append(api.ingest(a.agent, messages[start:start + a.batch], **set_only(
            dry_run=a.dry_run or None, source=a.source, ref=a.ref,
            context=[{"text": m} if isinstance(m, str) else m for m in context] or None)))
    return answers[0] if len(answers) == 1 else answers


def _message(line: str) -> str | dict[str, Any]:
    text = line.strip()
    if text.startswith("{"):
        try:
            found = json.loads(text)
        except ValueError:
            return text
        if isinstance(found, dict) and "text" in found:
            return found
    return text


def _search_options(a: argparse.Namespace) -> dict[str, Any]:
    return set_only(mode=a.mode, explain=a.explain or None, tags=a.tag, memory_types=a.type,
                    min_similarity=a.min_similarity, include_all=a.all or None, as_of=a.as_of,
                    rerank=False if a.no_rerank else None)


def _context(api: Credence, a: argparse.Namespace) -> Any:
    out = api.context(a.agent, a.query, **set_only(max_tokens=a.max_tokens, max_memories=a.max_memories),
                      **_search_options(a))
    return out if a.json else out.context


def _ask(api: Credence, a: argparse.Namespace) -> Any:
    out = api.ask(a.agent, a.question, **set_only(as_of=a.as_of, router=a.router, intent=a.intent, limit=a.limit,
                                                  sensitivity_ceiling=a.sensitivity_ceiling))
    return out.summary if a.summary else out


def _list(api: Credence, a: argparse.Namespace) -> Any:
    return list(api.memories(a.agent, **set_only(status=a.status, memory_type=a.type, include_all=a.all or None)))


def _audit(api: Credence, a: argparse.Namespace) -> Any:
    records = api.audit(a.agent, **set_only(op=a.op, actor=a.actor_filter, memory_id=a.memory, after=a.after,
                                            before=a.before))
    return list(itertools.islice(records, a.limit) if a.limit is not None else records)


def _entities(api: Credence, a: argparse.Namespace) -> Any:
    return list(api.entities(a.agent, **set_only(kind=a.kind)))


def _about(api: Credence, a: argparse.Namespace) -> Any:
    return api.about(a.agent, api.entity_named(a.agent, a.name).id, as_of=a.as_of)


def _entity(api: Credence, a: argparse.Namespace) -> Any:
    return api.entity(a.agent, api.entity_named(a.agent, a.name).id, as_of=a.as_of)


def _neighbourhood(api: Credence, a: argparse.Namespace) -> Any:
    return api.entity_neighbourhood(a.agent, api.entity_named(a.agent, a.name).id, depth=a.depth, as_of=a.as_of)


def _path(api: Credence, a: argparse.Namespace) -> Any:
    ends = [api.entity_named(a.agent, name).id for name in (a.source, a.target)]
    return api.entity_path(a.agent, *ends, max_hops=a.max_hops, as_of=a.as_of)


def _merge_entities(api: Credence, a: argparse.Namespace) -> Any:
    keep, merge = (api.entity_named(a.agent, name).id for name in (a.keep, a.merge))
    return api.merge_entities(a.agent, keep, merge)


def _update_entity(api: Credence, a: argparse.Namespace) -> Any:
    return api.update_entity(a.agent, api.entity_named(a.agent, a.name).id, kind=a.kind, add_aliases=a.alias)


SYSTEM = "_system"  # the tenant of the scheduler's jobs, as the service names it


@dataclass(frozen=True)
class Outcome:
    """What a command prints, and the exit status it ends with (a job that did not succeed: 1)."""
    out: Any
    status: int


def _tenant(agent: str) -> str | None:
    return None if agent == SYSTEM else agent


def _param(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    return name, value


def _enqueue(api: Credence, a: argparse.Namespace) -> Any:
    params = dict(a.param) if a.param else None
    return api.enqueue(_tenant(a.agent), a.kind, **set_only(params=params, priority=a.priority, key=a.key,
                                                            depends_on=a.depends_on, run_at=a.run_at))


def _jobs(api: Credence, a: argparse.Namespace) -> Any:
    jobs = api.jobs(_tenant(a.agent), **set_only(status=a.status, kind=a.kind))
    return list(itertools.islice(jobs, a.limit) if a.limit is not None else jobs)


def _job(api: Credence, a: argparse.Namespace) -> Any:
    agent = _tenant(a.agent)
    job = api.job(agent, a.id)
    if not a.wait:
        return job
    bar = Bar(None if a.quiet else sys.stderr, f"job {job.kind}", "step", job.progress.total)

    def shown(job: Job) -> None:
        bar.show(job.progress.done, job.progress.total, note=job.status)

    try:
        job = api.wait_job(agent, a.id, interval=a.interval, timeout=a.timeout, on_progress=shown)
    finally:
        bar.close()
    return Outcome(job, 0 if job.status == "succeeded" else 1)


def _consolidate(api: Credence, a: argparse.Namespace) -> Any:
    steps = dict.fromkeys(a.skip or (), False)
    thresholds = dict(_threshold(t) for t in a.threshold or ())
    return api.consolidate(a.agent, dry_run=a.dry_run, steps=steps or None, thresholds=thresholds or None)


def _threshold(text: str) -> tuple[str, float]:
    name, _, value = text.partition("=")
    try:
        return name, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--threshold {text!r}: give NAME=NUMBER") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="credence", description="Talk to a Credence memory service.")
    parser.add_argument("--url", help="the service (default: $CREDENCE_URL or http://127.0.0.1:8000)")
    parser.add_argument("--api-key", help="bearer key (default: $CREDENCE_API_KEY)")
    parser.add_argument("--actor", help="who acts, for the audit trail (default: $CREDENCE_ACTOR)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Handler, help: str, *args: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        for arg in args:
            sub.add_argument(arg)
        sub.set_defaults(handler=handler)
        return sub

    def retrieval_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--mode", choices=("hybrid", "vector", "keyword"))
        sub.add_argument("--no-rerank", action="store_true", help="raw relevance order")
        sub.add_argument("--explain", action="store_true")
        sub.add_argument("--tag", action="append", help="repeatable; every tag must match")
        sub.add_argument("--type", action="append", help="memory type; repeatable")
        sub.add_argument("--min-similarity", type=float)
        sub.add_argument("--as-of", help="check validity windows at this ISO-8601 instant")
        sub.add_argument("--all", action="store_true", help="every status, superseded and quarantined included")

    sub = command("remember", _remember, "store a memory", "agent", "text")
    sub.add_argument("--type", help="fact (default), preference, goal, event, decision...")
    sub.add_argument("--tag", action="append", help="repeatable")
    sub.add_argument("--importance", type=float)
    sub.add_argument("--category")
    sub.add_argument("--source", help="provenance: user_explicit, system, tool_output, document, inference...")
    sub.add_argument("--ref", help="provenance reference (message id, document id...)")
    sub.add_argument("--claim", nargs=3, metavar=("SUBJECT", "PREDICATE", "VALUE"),
                     help="what the memory asserts; enables conflict detection")

    sub = command("ingest", _ingest, "remember from what was said: each line of FILE (or stdin) a message; "
                  "claims extracted, each decided ADD / UPDATE / DELETE / NOOP", "agent")
    sub.add_argument("file", nargs="?", help="a text file, one message per line (or JSON objects); - or none: stdin")
    sub.add_argument("--whole", action="store_true", help="the whole input is one message")
    sub.add_argument("--dry-run", action="store_true", help="answer the plan, write nothing")
    sub.add_argument("--source", help="provenance of what it yields (default user_implicit)")
    sub.add_argument("--ref", help="the conversation, for provenance")
    sub.add_argument("--batch", type=int, default=INGEST_BATCH, help=f"messages per request (default {INGEST_BATCH})")

    command("get", lambda api, a: api.get(a.agent, a.id), "read one memory", "agent", "id")
    sub = command("list", _list, "a tenant's memories, newest first", "agent")
    sub.add_argument("--status", action="append", help="repeatable; default active")
    sub.add_argument("--type", action="append", help="repeatable")
    sub.add_argument("--all", action="store_true", help="every status")
    command("forget", lambda api, a: api.delete(a.agent, a.id) if a.hard else api.archive(a.agent, a.id),
            "archive a memory (hidden by default); --hard removes it for good", "agent", "id"
            ).add_argument("--hard", action="store_true")

    sub = command("search", lambda api, a: api.search(a.agent, a.query, limit=a.limit, **_search_options(a)),
                  "hybrid search, reranked", "agent", "query")
    sub.add_argument("--limit", type=int, default=10)
    retrieval_options(sub)
    sub = command("context", _context, "a prompt-ready context (prints its text; --json for everything)",
                  "agent", "query")
    sub.add_argument("--max-tokens", type=int)
    sub.add_argument("--max-memories", type=int)
    sub.add_argument("--json", action="store_true")
    retrieval_options(sub)

    sub = command("ask", _ask, "ask like a person: the question is routed to its handler (about me, an entity, a "
                              "relationship, a period, the past, feelings, decisions, goals...)", "agent", "question")
    sub.add_argument("--as-of", help="ask at this ISO-8601 instant (default now)")
    sub.add_argument("--router", choices=("rules", "llm"))
    sub.add_argument("--intent", help="run this handler instead of the routed one")
    sub.add_argument("--limit", type=int)
    sub.add_argument("--sensitivity-ceiling", choices=("normal", "sensitive", "private"))
    sub.add_argument("--summary", action="store_true", help="print the answer's summary only")
    command("preferences", lambda api, a: api.preferences(a.agent), "an agent's memory preferences", "agent")

    command("reinforce", lambda api, a: api.reinforce(a.agent, a.id), "confirm a memory", "agent", "id")
    command("dispute", lambda api, a: api.dispute(a.agent, a.id, a.reason), "dispute a memory", "agent", "id"
            ).add_argument("--reason")
    command("explain", lambda api, a: api.explain(a.agent, a.id), "trust term by term, sources, conflicts",
            "agent", "id")
    command("history", lambda api, a: api.history(a.agent, a.id), "the audit trail of a memory", "agent", "id")
    sub = command("audit", _audit, "a tenant's audit records, newest first", "agent")
    sub.add_argument("--op", action="append", help="store, update, archive, hard_delete, supersede, ...; repeatable")
    sub.add_argument("--actor", dest="actor_filter", metavar="ACTOR", help="records this actor made")
    sub.add_argument("--memory", help="records that touched this memory id")
    sub.add_argument("--after", help="records made after this ISO-8601 instant")
    sub.add_argument("--before", help="records made before this ISO-8601 instant")
    sub.add_argument("--limit", type=int, help="at most this many records (default: every one)")
    command("conflicts", lambda api, a: api.conflicts(a.agent, include_resolved=a.include_resolved),
            "pending conflicts", "agent").add_argument("--include-resolved", action="store_true")
    command("resolve", lambda api, a: api.resolve_conflict(a.agent, a.id, a.action, a.reason),
            "resolve a conflict: supersede, reject or keep_both", "agent", "id", "action").add_argument("--reason")
    command("quarantine", lambda api, a: list(api.quarantined(a.agent)), "the quarantine lane", "agent")
    command("review", lambda api, a: api.review(a.agent, a.id, a.action, a.reason),
            "activate or reject a quarantined memory", "agent", "id", "action").add_argument("--reason")

    # The entity graph: entities are named as memories name them (an alias works too).
    command("entities", _entities, "a tenant's entities (people, places, organisations, products) in name order",
            "agent").add_argument("--kind", choices=ENTITY_KINDS)
    as_of: dict[str, Any] = {"help": "what held at this ISO-8601 instant (default now)"}
    command("about", _about, "what we know about an entity: relationships by type, memories by predicate",
            "agent", "name").add_argument("--as-of", **as_of)
    command("entity", _entity, "an entity and its relationships, historical ones included", "agent", "name"
            ).add_argument("--as-of", **as_of)
    sub = command("neighbourhood", _neighbourhood, "entities and relationships around an entity, ready to draw",
                  "agent", "name")
    sub.add_argument("--depth", type=int, help="1..3 relationships away (default 1)")
    sub.add_argument("--as-of", **as_of)
    sub = command("path", _path, "how two entities are connected: the shortest chain of relationships",
                  "agent", "source", "target")
    sub.add_argument("--max-hops", type=int, help="1..6 relationships (default 4)")
    sub.add_argument("--as-of", **as_of)
    sub = command("entity-update", _update_entity, "operators: set an entity's kind, add known aliases",
                  "agent", "name")
    sub.add_argument("--kind", choices=ENTITY_KINDS)
    sub.add_argument("--alias", action="append", help="another name of it; repeatable")
    command("merge-entities", _merge_entities, "administrators: fold the entity MERGE into KEEP (one transaction)",
            "agent", "keep", "merge")

    # Durable jobs: AGENT `_system` names the scheduler's jobs (they need the administrator key).
    sub = command("enqueue", _enqueue, "enqueue a job (expire, decay, stem, ...) for a tenant", "agent", "kind")
    sub.add_argument("--param", action="append", type=_param, metavar="NAME=VALUE",
                     help="a parameter of the job (a string); repeatable")
    sub.add_argument("--priority", type=int, help="1 runs first .. 10 last (default 5)")
    sub.add_argument("--key", help="idempotency key: the same key twice is one job")
    sub.add_argument("--depends-on", action="append", metavar="JOB", help="a job that must succeed first; repeatable")
    sub.add_argument("--run-at", help="not before this ISO-8601 instant")
    sub = command("jobs", _jobs, "a tenant's jobs, newest first", "agent")
    sub.add_argument("--status", action="append", help="queued, running, succeeded, cancelled, dead; repeatable")
    sub.add_argument("--kind", action="append", help="repeatable")
    sub.add_argument("--limit", type=int, help="at most this many jobs (default: every one)")
    sub = command("job", _job, "one job: status, progress, result or last error; --wait follows it to its end",
                  "agent", "id")
    sub.add_argument("--wait", action="store_true", help="show a progress bar until the job ends (exit 1 unless "
                                                         "it succeeded)")
    sub.add_argument("--interval", type=float, default=1.0, help="seconds between two looks (default 1)")
    sub.add_argument("--timeout", type=float, help="give up waiting after this many seconds")
    sub.add_argument("--quiet", "-q", action="store_true", help="no progress bar on stderr")
    command("cancel-job", lambda api, a: api.cancel_job(_tenant(a.agent), a.id),
            "cancel a job (a running one stops at its next checkpoint)", "agent", "id")
    command("retry-job", lambda api, a: api.retry_job(_tenant(a.agent), a.id),
            "queue a dead or cancelled job again", "agent", "id")
    command("restore", lambda api, a: api.restore(a.agent, a.id, a.reason),
            "restore an archived memory (archived by hand, expired or decayed)", "agent", "id"
            ).add_argument("--reason")
    sub = command("consolidate", _consolidate, "merge near-duplicates, surface contradictions, corroborate, digest old "
                  "events, merge duplicate entities, prune past retention; --dry-run previews every change", "agent")
    sub.add_argument("--dry-run", action="store_true", help="answer the plan, change nothing")
    sub.add_argument("--skip", action="append", choices=("duplicates", "contradictions", "corroboration", "digests",
                                                          "entities", "prune"), help="a step not to take; repeatable")
    sub.add_argument("--threshold", action="append", metavar="NAME=NUMBER",
                     help="override a threshold, e.g. duplicate_similarity=0.97; repeatable")

    command("ready", lambda api, a: api.ready(), "is the service ready?")
    transfer.register(command)
    return parser


def plain(out: Any) -> Any:
    """Models (and lists of them) as plain JSON types, for printing."""
    if isinstance(out, BaseModel):
        return out.model_dump(mode="json")
    if isinstance(out, list):
        return [plain(item) for item in out]
    return out


def main(argv: Sequence[str] | None = None, api: Credence | None = None) -> int:
    """`api` lets a caller (the tests) hand in a client bound to an app; otherwise one from the
    environment and the flags."""
    args = _parser().parse_args(argv)
    own = api is None
    if api is None:
        api = Credence.from_env(**set_only(url=args.url, api_key=args.api_key, actor=args.actor))
    try:
        out = args.handler(api, args)
    except CredenceAPIError as exc:
        print(f"credence: {exc}", file=sys.stderr)
        for error in exc.errors:
            print(f"  {error.get('field')}: {error.get('message')}", file=sys.stderr)
        return 1
    except ServiceUnreachable as exc:
        print(f"credence: {exc}", file=sys.stderr)
        return 3
    except CredenceError as exc:  # a file the command cannot read (credence import), a wait that timed out
        print(f"credence: {exc}", file=sys.stderr)
        return 1
    finally:
        if own:
            api.close()
    status = 0
    if isinstance(out, Outcome):
        out, status = out.out, out.status
    if out is not None:
        try:
            print(out if isinstance(out, str) else json.dumps(plain(out), indent=2, ensure_ascii=False), flush=True)
        except BrokenPipeError:  # `credence ... | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


if __name__ == "__main__":
    sys.exit(main())
