"""Words and their stems: the one tokenizer and stemmer of keyword search. Pure.

Keyword search matches stems, not whole words, so "hiking" finds a memory that says "hike" and
"preferences" one that says "prefers". The write path stores each memory's stems beside its text
(`stored`), and a query's terms are stemmed by the same function (`stem`), so the full-text index
and a small tenant's scan match the same words. English Snowball stemming (PyStemmer, a C
extension: a search's few terms and a memory's words cost microseconds)."""
from __future__ import annotations

import re
import threading

import Stemmer

_WORD = re.compile(r"\w+")
# A PyStemmer stemmer is not safe to share between threads (writes may run in worker threads).
_LOCAL = threading.local()


def words(text: str) -> list[str]:
    """The text's words, lower-cased: runs of letters, digits and underscores."""
    return _WORD.findall(text.lower())


def stem(terms: list[str]) -> list[str]:
    """Each word's stem, in order (lower-case words in, lower-case stems out)."""
    stemmer = getattr(_LOCAL, "stemmer", None)
    if stemmer is None:
        stemmer = _LOCAL.stemmer = Stemmer.Stemmer("english")
    return list(stemmer.stemWords(terms))


def stored(text: str) -> str:
    """What a memory stores as its `stems`: its distinct stems in order, each between spaces
    (" hike went mountain "), so a whole stem is found with CONTAINS " hike " and no regular expression,
    and the full-text index reads one stem per token."""
    return " " + " ".join(dict.fromkeys(stem(words(text)))) + " "


def needle(term_stem: str) -> str:
    """What `stored` text contains when it holds this stem."""
    return f" {term_stem} "
