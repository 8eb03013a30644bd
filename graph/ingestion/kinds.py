"""What kind of memory a sentence with no claim is, when it is one at all: a procedure, a decision,
a goal, an event, a preference, or a fact worth keeping (health, money, plans); None for the rest
("feeling it in my knees"). Pure: wording cues, in that order of precedence; last, the user's own
sensitive statement (health, money) is a fact. Where no wording cue says, the sentence's parse
does: a wish or plan as its main verb is a goal, two or more bare imperatives a procedure, and a
statement pinned to a day or a clock time an event."""
from __future__ import annotations

import re
from typing import Any

from graph.ingestion.sensitivity import sensitive_topic

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


_GOAL_VERBS = frozenset({"want", "hope", "hop", "aim", "plan", "intend", "need", "try", "determine", "resolve"})
_AVAILABILITY = frozenset({"free", "busy", "around", "available", "reachable", "online", "offline"})
_CLOCK = re.compile(r"(?i)\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\bat\s+\d{1,2}(?::\d{2})?\b|\b(?:noon|midday|midnight)\b")


def parsed_kind(doc: Any, *, moment: bool) -> str | None:
    """The kind the parse gives a claimless sentence (`moment`: it names a day to come or a clock time)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return None
    subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)
    if root.lemma_.lower() in _GOAL_VERBS and any(c.dep_ == "xcomp" for c in root.children) and (
            not subject or any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in root.children)):
        return "goal"  # "hoping to be fluent by 2028", "need to lose 5 kilos before the wedding"
    imperatives = [t for t in doc if t.tag_ == "VB" and t.dep_ in ("ROOT", "conj")
                   and not any(c.dep_ in ("nsubj", "aux", "nsubjpass") for c in t.children)]
    if len(imperatives) >= 2:
        return "procedure"  # "when it shows E24, clean the filter and restart it"
    # Said to the assistant ("see you on Monday", "thanks, talk tomorrow"), or only whether the user is
    # free then: no event of the user's life.
    addressed = any(t.lower_ in ("you", "thanks", "thx", "ty", "happy", "merry") for t in doc)
    availability = any(t.dep_ == "acomp" and t.lower_ in _AVAILABILITY for t in doc)
    # Of the user's own life: said of "I"/"we", of a thing (a noun), or of nobody (a fragment); not of
    # a stranger by name ("Taylor Swift plays Wembley on the 20th") or the weather ("it rained").
    who = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)
    own = who is None or who.lower_ in ("i", "we") or (who.pos_ == "NOUN" and who.lower_ not in ("it", "this"))
    past = root.tag_ == "VBD"  # what happened is commentary, not a plan ("work was rough")
    if moment and own and not past and not addressed and not availability and any(
            t.pos_ in ("NOUN", "PROPN", "VERB") and not t.is_stop for t in doc):
        return "event"  # "Big presentation to the board on Tuesday!", "Flying to Boston on the 3rd"
    return None


def has_clock_time(sentence: str) -> bool:
    return bool(_CLOCK.search(sentence))


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
    if _FIRST_PERSON.search(sentence) and sensitive_topic(sentence):
        # The user's own health or money, in words no rule above knows ("in a lot of debt"), whether
        # or not the message also asks to keep it private.
        return "fact"
    return None
