"""What kind of memory a sentence with no claim is, when it is one at all: a procedure, a decision,
a goal, an event, a preference, or a fact worth keeping (health, money, plans); None for the rest
("feeling it in my knees"). Pure: wording cues, in that order of precedence; last, the user's own
sensitive statement (health, money) is a fact."""
from __future__ import annotations

import re

from graph.ingestion.sensitivity import sensitivity_of

_PROCEDURE = re.compile(r"(?i)^(?:to|when\s+(?:i|we|you)|how\s+to|steps?|process|procedure|recipe)\b[^:]{0,80}:\s*\S|"
                        r"\b(?:first|1\.)\b.*\bthen\b.*\b(?:then|finally)\b|\byou\s+(?:also\s+)?(?:have|need)\s+to\b|"
                        r"\b(?:hold|press|run|push|rsync|restart|build|deploy)\b[^.]*\bthen\b")
_DECISION = re.compile(r"(?i)\b(?:decided|decide\s+to|went\s+with|going\s+with|go\s+with|chose|chosen|opted|"
                       r"settled\s+on|picked\s+\w+\s+over|made\s+the\s+call|committed\s+to|signed\s+up\s+for|accepted\s+the|"
                       r"turned\s+down|i'm\s+taking\s+the)\b")
_GOAL = re.compile(r"(?i)\b(?:i\s+want\s+to|we\s+want\s+to|i\s+wanna|goal|goals|aiming|aim\s+to|plan\s+to|"
                   r"planning\s+to|hoping\s+to|trying\s+to|saving\s+for|saving\s+up|working\s+towards?|resolution|by\s+the\s+end\s+of|"
                   r"determined\s+to|i'd\s+like\s+to|want\s+to\s+learn|learning|intend(?:s|ing)?\s+to|hop(?:e|ing)\s+to|"
                   r"my\s+dream\s+is|dreaming\s+of)\b")
_EVENT = re.compile(r"(?i)\b(?:wedding|funeral|meeting|appointment|dentist|doctor's|party|dinner|lunch|interview|"
                    r"flight|trip|holiday|vacation|visit|visiting|conference|concert|exam|surgery|standup|stand-up|class|lesson|"
                    r"practice|choir|therapy|training|match|game|gig|book\s+club|on\s+call|staying\s+with\s+us|"
                    r"contract|kids|payday|rent|taxes|anniversary|birthday\s+dinner|deadline|moving\s+day|"
                    r"bought\s+a\s+(?:place|house|flat|home)|graduat\w+|promoted|promotion|had\s+a\s+baby|died|passed\s+away|"
                    r"piano|yoga|swim\w*|gym\s+session)\b")
_PREFERENCE = re.compile(r"(?i)\b(?:i\s+prefer|prefers|i'd\s+rather|i\s+would\s+rather|rather\s+than|my\s+preference|"
                         r"i\s+like\s+(?:it|my|to|when)|works\s+best\s+for\s+me|please\s+always|always\s+use|never\s+use)\b")
_FACT = re.compile(r"(?i)\b(?:diagnosed|i'm\s+on\s+\w+|i\s+am\s+on\s+\w+|i\s+make|i\s+earn|party\s+member|member\s+of|"
                   r"off\s+(?:sugar|alcohol|caffeine|booze|meat|dairy|gluten)|working\s+\w+\s+days|trying\s+for\s+a\s+baby|"
                   r"pregnant|i\s+have\s+(?:type|a\s+condition|adhd|asthma)|vote[ds]?\b|i'll\s+be\s+working|"
                   r"in\s+recovery|sober)\b")
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i'm|im|i've|i'll|my|we|we're|our|me|us)\b")


def claimless_kind(sentence: str, *, has_time: bool) -> str | None:
    if _PROCEDURE.search(sentence):
        return "procedure"
    if _DECISION.search(sentence):
        return "decision"
    if _GOAL.search(sentence):
        return "goal"
    if _PREFERENCE.search(sentence):
        return "preference"
    if _FACT.search(sentence):
        return "fact"
    if _EVENT.search(sentence) and (has_time or _FIRST_PERSON.search(sentence)):
        return "event"
    if _FIRST_PERSON.search(sentence) and sensitivity_of(sentence) == "sensitive":
        return "fact"  # the user's own health or money, in words no rule above knows ("in a lot of debt")
    return None
