"""Asking: questions as people ask them, routed by intent to a handler on the belief graph
(docs/asking.md).

Public surface: `AskService.ask(AskQuery) -> Answer`, the records (`AskQuery`, `Answer`, `Route`,
`Slots`, ...), the routers behind one interface (`RuleRouter`, the default; `LlmRouter`, an
OpenAI-compatible endpoint the user configures) and the deterministic rules (`route`)."""
from graph.asking.model import (
    MAX_LIMIT,
    MAX_QUESTION_CHARS,
    MAX_SUMMARY_TOKENS,
    Answer,
    AskQuery,
    Cited,
    Feeling,
    FollowedUp,
    Reading,
    Section,
    State,
    Window,
    check_ask,
)
from graph.asking.route import Route, Slots
from graph.asking.router import LlmRouter, Router, RuleRouter
from graph.asking.rules import route
from graph.asking.service import AskService

__all__ = ["MAX_LIMIT", "MAX_QUESTION_CHARS", "MAX_SUMMARY_TOKENS", "Answer", "AskQuery", "AskService", "Cited",
           "Feeling", "FollowedUp", "LlmRouter", "Reading", "Route", "Router", "RuleRouter", "Section", "Slots",
           "State", "Window", "check_ask", "route"]
