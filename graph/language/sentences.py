"""Sentences of chat text, with their character spans. Pure.

Chat has no reliable capitals, so a sentence ends at . ! ? (repeated), a line break or a semicolon,
followed by space or the end, except after a title or a common abbreviation ("Dr. Lee", "e.g."),
inside a number ("3.5") or a file name ("CHANGELOG.md"). Emoji and trailing punctuation stay with
the sentence they close."""
from __future__ import annotations

import re
from dataclasses import dataclass

_ABBREVIATIONS = frozenset(
    "dr mr mrs ms mx st prof jr sr vs etc eg ie approx no nr dept est fig inc ltd co corp mt ave rd".split())
_END = re.compile(r"(?:[.!?]+|;|\n+)(?=\s|$)|\n+")


@dataclass(frozen=True)
class Sentence:
    text: str
    start: int  # its first character in the text
    end: int  # one past its last


def split_sentences(text: str) -> list[Sentence]:
    out: list[Sentence] = []
    start = 0
    for m in _END.finditer(text):
        if m.group().startswith(".") and _abbreviation_before(text, m.start()):
            continue
        _add(text, start, m.end(), out)
        start = m.end()
    _add(text, start, len(text), out)
    return out


def _abbreviation_before(text: str, dot: int) -> bool:
    word = re.search(r"([A-Za-z]+)\.?$", text[max(0, dot - 12):dot].replace(".", ""))
    if word is None:
        return False
    w = word.group(1).lower()
    # One letter ("J. Okafor") or a known abbreviation; "e.g." leaves "eg".
    return w in _ABBREVIATIONS or (len(w) == 1 and text[dot - 1].isupper())


def _add(text: str, start: int, end: int, out: list[Sentence]) -> None:
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return
    lead = len(piece) - len(piece.lstrip())
    out.append(Sentence(stripped, start + lead, start + lead + len(stripped)))
