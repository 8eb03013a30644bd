"""The optional LLM steps: an extractor and a decider that ask the OpenAI-compatible chat model the
user configures (graph/llm, CREDENCE_LLM_*; switched on by CREDENCE_LLM_EXTRACT and
CREDENCE_LLM_DECIDE), by tool calling or a JSON object. They implement steps.py's interfaces, so the
service runs them exactly where the rules run.

What the model is sent has its secrets redacted first (graph/memories/secrets.py), as everything
else is. An answer that does not parse, or names a memory it was not shown, falls back to the
rules for that message or candidate, and the reason says so. Its quality is not measured here: no
model runs in this repository's tests or benchmarks; the tests check the plumbing against a local
server that speaks the protocol."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from graph.core.vocab import MEMORY_TYPES, SENSITIVITIES
from graph.ingestion.decide import decide
from graph.ingestion.extractor import extract
from graph.ingestion.model import (
    ADD,
    DELETE,
    END,
    FORGET,
    MODES,
    NOOP,
    OPERATIONS,
    REMEMBER,
    UPDATE,
    Candidate,
    Decision,
    Draft,
    Extraction,
    Known,
    Message,
)
from graph.ingestion.steps import Decider, Extractor, RuleDecider, RuleExtractor
from graph.llm import ChatClient, LlmError
from graph.memories.secrets import find_secrets, redact

log = logging.getLogger(__name__)

_MEMORY = {
    "type": "object",
    "properties": {
        "text": {"type": "string"}, "memory_type": {"type": "string", "enum": list(MEMORY_TYPES)},
        "subject": {"type": ["string", "null"]}, "predicate": {"type": ["string", "null"]},
        "value": {"type": ["string", "null"]},
        "action": {"type": "string", "enum": [REMEMBER, END, FORGET]},
        "historical": {"type": "boolean"}, "sensitivity": {"type": "string", "enum": list(SENSITIVITIES)},
        "effective_from": {"type": ["string", "null"], "description": "YYYY-MM-DD"},
        "expires_at": {"type": ["string", "null"], "description": "YYYY-MM-DD"},
        "recurrence": {"type": ["string", "null"], "description": "an RFC 5545 RRULE without RRULE:"},
        "about": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["text", "memory_type"],
}
EXTRACT_TOOL = {"type": "function", "function": {
    "name": "record_memories", "description": "The memories worth keeping from the user's message.",
    "parameters": {"type": "object", "properties": {"memories": {"type": "array", "items": _MEMORY}},
                   "required": ["memories"]}}}
DECIDE_TOOL = {"type": "function", "function": {
    "name": "decide", "description": "What to do with the new information against the existing memories.",
    "parameters": {"type": "object", "properties": {
        "operation": {"type": "string", "enum": list(OPERATIONS)},
        "mode": {"type": ["string", "null"], "enum": [*MODES, None]},
        "memory_id": {"type": ["string", "null"]}, "reasoning": {"type": "string"}},
        "required": ["operation", "reasoning"]}}}
EXTRACT_PROMPT = (
    "You extract memories from a user's chat message for a personal assistant. Keep facts about the user and "
    "people in their life; skip questions, hypotheticals, jokes, small talk, general knowledge and the assistant's "
    "words. Never keep passwords, card numbers, national identifiers, keys or tokens. Give a claim (subject, "
    "predicate, value) where one applies: subject 'user' for the user; predicates in snake_case (lives_in, "
    "works_at, job_title, likes, dislikes, diet, allergy, partner, spouse, ...). action 'end' when something the "
    "user had has ended, 'forget' when they ask you to forget or not to store something. Resolve relative dates "
    "against the message date.")
DECIDE_PROMPT = (
    "You manage an assistant's memory. Given new information and the existing memories, choose one operation: "
    "ADD (nothing equivalent), UPDATE with mode supersede (a change over time), replace (a correction) or append "
    "(another value, more detail), DELETE with mode soft (it ended) or hard (the user asked to forget), or NOOP "
    "(already known). Name the existing memory_id for UPDATE, DELETE and NOOP.")


class LLMExtractor:
    name = "llm"

    def __init__(self, chat: ChatClient, fallback: Extractor | None = None) -> None:
        self.chat, self.fallback = chat, fallback or RuleExtractor()

    async def prepare(self, messages: Sequence[Message], instructions: str | None = None) -> Mapping[str, Any]:
        # The model reads the text (the rules' fallback parses what it needs), and the agent's instructions.
        return {"instructions": instructions} if instructions else {}

    async def extract(self, message: Message, context: Sequence[Message], circle: set[str],
                      registered: dict[str, bool], prepared: Mapping[str, Any] | None = None) -> Extraction:
        findings = find_secrets(message.text)
        secrets = tuple((f.kind, f.start, f.end) for f in findings)
        if message.role != "user":
            return Extraction((), secrets, ("the assistant's words state nothing about the user",))
        text = redact(message.text, findings) if findings else message.text
        earlier = [{"role": m.role, "text": redact(m.text, find_secrets(m.text))} for m in context[-10:]]
        prompt = json.dumps({"message": text, "sent": message.at.date().isoformat(), "conversation": earlier,
                             "people": sorted(circle)})
        try:
            instructions = (prepared or {}).get("instructions")
            system = EXTRACT_PROMPT + (f"\n\nThe user's own instructions for what to remember: {instructions}"
                                       if instructions else "")
            answer = await self.chat.structured(system, prompt, EXTRACT_TOOL)
            candidates = tuple(_candidate(m) for m in answer["memories"])
        except (LlmError, KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("LLM extraction failed (%s: %s): the rules extract this message", type(exc).__name__, exc)
            return extract(message, context, circle=circle, registered=registered)
        kept = tuple(c for c in candidates if "[REDACTED" not in c.text)
        return Extraction(kept, secrets, ())


def _candidate(m: dict[str, Any]) -> Candidate:
    claim = None
    if m.get("predicate") and m.get("value"):
        claim = Draft(str(m.get("subject") or "user"), str(m["predicate"]), str(m["value"]))
    memory_type = m["memory_type"] if m.get("memory_type") in MEMORY_TYPES else "fact"
    action = str(m["action"]) if m.get("action") in (REMEMBER, END, FORGET) else REMEMBER
    return Candidate(text=str(m["text"]), memory_type=memory_type, claim=claim, action=action,
                     historical=bool(m.get("historical")),
                     sensitivity=m["sensitivity"] if m.get("sensitivity") in SENSITIVITIES else "normal",
                     effective_from=_day(m.get("effective_from")), expires_at=_day(m.get("expires_at")),
                     recurrence=m.get("recurrence") or None, about=tuple(str(a).lower() for a in m.get("about") or ()),
                     rule="llm")


def _day(value: Any) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except (TypeError, ValueError):
        return None


class LLMDecider:
    name = "llm"

    def __init__(self, chat: ChatClient, fallback: Decider | None = None) -> None:
        self.chat, self.fallback = chat, fallback or RuleDecider()

    async def decide(self, candidates: Sequence[Candidate], known_for: Callable[[Candidate], Sequence[Known]],
                     multi: Callable[[str], bool], previous_text: str | None) -> list[Decision]:
        out: list[Decision] = []
        for c in candidates:
            known = list(known_for(c))
            shown = {k.id: k for k in known}
            prompt = json.dumps({"new": {"text": c.text, "memory_type": c.memory_type, "action": c.action,
                                         "claim": c.claim.__dict__ if c.claim else None},
                                 "existing": [{"memory_id": k.id, "text": k.text, "similarity": k.similarity,
                                               "claim": [k.subject, k.predicate, k.value] if k.predicate else None}
                                              for k in known]})
            try:
                answer = await self.chat.structured(DECIDE_PROMPT, prompt, DECIDE_TOOL)
                op, mode, target = answer["operation"], answer.get("mode"), answer.get("memory_id")
                if op not in OPERATIONS or (mode is not None and mode not in MODES):
                    raise ValueError("operation")
                if op != ADD and (not isinstance(target, str) or target not in shown):
                    raise ValueError("memory_id")
            except (LlmError, KeyError, IndexError, TypeError, ValueError) as exc:
                log.warning("LLM decision failed (%s: %s): the rules decide this candidate", type(exc).__name__, exc)
                out += [d if "rules decided" in d.reason else _note(d) for d in decide(c, known, multi, previous_text)]
                continue
            many = bool(c.claim and c.claim.predicate and multi(c.claim.predicate))
            out.append(Decision(op, mode if op in (UPDATE, DELETE) else None, c,
                                shown.get(str(target)) if op != ADD else None,
                                str(answer.get("reasoning") or "LLM decision"), c.claim, not many))
        return [d for d in out if not (d.op == DELETE and d.target is None)]


def _note(d: Decision) -> Decision:
    return Decision(d.op, d.mode, d.candidate, d.target, f"{d.reason} (the LLM answer was unusable: rules decided)",
                    d.claim, d.exclusive, d.targets)


def llm_steps(chat: ChatClient | None, *, extract: bool, decide: bool,
              rules: Extractor | None = None) -> dict[str, Any]:
    """The LLM extractor and decider that are switched on (none without a chat model: the rules);
    `rules`: the extractor the LLM one falls back to."""
    if chat is None:
        return {}
    steps: dict[str, Any] = {}
    if extract:
        steps["extractor"] = LLMExtractor(chat, rules)
    if decide:
        steps["decider"] = LLMDecider(chat)
    return steps


__all__ = ["NOOP", "LLMDecider", "LLMExtractor", "llm_steps"]
