"""A question prepared for the router's rules: lower-cased, curly quotes made straight, and the words
that must not count as markers masked: quoted titles ("find the recipe called 'what I used to
cook'"), titles after a kind of work ("the movie Not Okay", "the page called My Goals"), what a
work is about ("the article about goal setting"), what a saved thing holds ("the spreadsheet where
I tracked my goals") and hyphenated compounds ("not-so-secret", "goals-based", "decide-or-die").
Every step keeps the length, so a span found in the masked text is the same span of the original.
Pure."""
from __future__ import annotations

import re
from dataclasses import dataclass

MASK = "_"

# A title in quotes; an apostrophe inside a word ("don't", "Sam's") opens none.
_QUOTED = re.compile(r"""(?:(?<=\s)|(?<=^)|(?<=[(:]))(['"])(?=\S)(.+?)(?<=\S)\1(?=[\s,.?!:;)]|$)""")
# A work named by its title: "the movie Not Okay", "a song called Used To Love Her", "page called My Goals".
_WORKS = (r"movie|film|song|album|book|novel|show|series|podcast|page|note|article|recipe|doc|document|file|"
          r"playlist|poem|painting|game|app")
_TITLED = re.compile(r"\b(?i:" + _WORKS + r")(?i: called| named| titled)? ((?:[A-Z][\w']*)(?: [A-Z][\w']*)*)")
_CALLED = re.compile(r"\b(?:called|named|titled) ((?:[A-Z][\w']*)(?: [A-Z][\w']*)*)")
_HYPHENATED = re.compile(r"\b\w+(?:-\w+)+\b")
# What a work is about names its subject, not an ask: "the article about goal setting I bookmarked",
# "slides from my talk on decision trees". Masked up to the end of the phrase (a clause, an
# exclusion, a window); a time after "on" ("the talk on Friday") is a window, not a subject.
_SUBJECT = re.compile(r"\b(?:" + _WORKS + r"|episode|talk|slides|video|essay|paper|post|thread|lecture|newsletter)s? "
                      r"(?:about|on) (?!(?:the )?(?:\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                      r"last|this|next|my|our|me|him|her|them|it)\b)"
                      r"([^,.?!;]+?)(?=\s(?:i|we|you|that|which|who|but|except|other|and|or|from|for|by|in|at|last|"
                      r"this|since|before|after|without|besides|apart|not)\b|[,.?!;]|$)")


# What a saved thing holds, said in a clause after it, names its content, not an ask: "the spreadsheet
# where I tracked my goals", "the note in which we listed what we decided". Masked to the end of the
# clause.
_HOLDS = re.compile(r"\b(?:" + _WORKS + r"|spreadsheet|sheet|email|message|memo|voice memo|list|notebook|"
                    r"journal|entry|chat|screenshot|photo|pic|link|folder|draft|letter|text|doc|notes)s? "
                    r"(?:where|in which|that|which) (?:i|we) (?!(?:did|do|does|was|were|am|is|are|have|had|has)\b)"
                    r"([^,.?!;]+)")


@dataclass(frozen=True)
class Question:
    text: str  # as asked, curly quotes made straight
    lower: str  # lower-cased
    masked: str  # lower-cased, titles and compounds masked
    titles: tuple[tuple[int, int], ...]  # spans of the titles found (quoted or named)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + re.sub(r"\S", MASK, text[start:end]) + text[end:]


def prepare(raw: str) -> Question:
    text = " ".join(raw.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
                    .replace("\u201d", '"').split())
    lower = text.lower()
    masked = lower
    titles: list[tuple[int, int]] = []
    quoted = [m.span(2) for m in _QUOTED.finditer(text)]
    for start, end in quoted:
        # A quoted title follows a kind of work or "called", or starts with a capital; a quoted
        # phrase ("'used to' vs 'use to'") is masked all the same, but names nothing.
        if text[start].isupper() or re.search(r"\b(?:called|named|titled|" + _WORKS + r")\W*$", text[:start]):
            titles.append((start, end))
    for pattern in (_TITLED, _CALLED):
        for m in pattern.finditer(text):
            # A title of two capitalised words or more, or one after "called"; one word after "the
            # book" may be a name ("the Murakami book" has it before).
            if pattern is _CALLED or " " in m.group(1) or m.group(1)[:1].isupper():
                titles.append(m.span(1))
    for start, end in [*titles, *quoted]:
        masked = _blank(masked, start, end)
    for m in _SUBJECT.finditer(masked):
        masked = _blank(masked, *m.span(1))
    for m in _HOLDS.finditer(masked):
        masked = _blank(masked, *m.span(1))
    for m in _HYPHENATED.finditer(masked):
        masked = masked[:m.start()] + m.group().replace("-", MASK) + masked[m.end():]
    return Question(text=text, lower=lower, masked=masked, titles=tuple(sorted(set(titles))))
