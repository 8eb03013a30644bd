"""Small pure helpers the extraction rules share: values as written, names, first person."""
from __future__ import annotations

import re

from graph.ingestion.vocabulary import NOT_VALUES

FIRST_PERSON = frozenset({"i", "i'm", "im", "i am", "i've", "ive", "we", "we're", "we are", "we've", "my", "our",
                          "me", "us", "myself", "i’m", "we’re", "i'd", "we'd", "i'll", "we'll"})
PRONOUNS = {"he": "m", "him": "m", "his": "m", "he's": "m", "she": "f", "her": "f", "hers": "f", "she's": "f",
            "they": "n", "them": "n", "their": "n", "they're": "n"}

# A phone number by its shape, spaces, brackets and dashes inside it: "+44 7700 900 123", "(0161) 496-0000".
PHONE_NUMBER = re.compile(r"\+?\d[\d ().-]{5,}\d")
_TRAIL = re.compile(r"[\s,.;:!?)\]\"'’…]+$")
_LEAD = re.compile(r"^(?:a|an|the|some|my|our)\s+", re.I)
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+")
# Chat asides that trail a value and are no part of it: "a beagle called Rufus btw", "Monzo now lol".
_FILLER = re.compile(r"(?i)(?:\s+(?:btw|lol|lmao|haha+|hehe+|tbh|fyi|imo|rn|atm|though|tho|too|now|anymore|already|"
                     r"these\s+days|nowadays|lately|recently|after\s+all|x+|:\)|:d|:p))+$")


def clean_value(value: str) -> str:
    """A value as written, minimal: no leading article, no trailing punctuation or emoji."""
    value = _EMOJI.sub("", value).strip()
    value = _TRAIL.sub("", value)
    value = _TRAIL.sub("", _FILLER.sub("", value))
    value = _LEAD.sub("", value)
    return value.strip(" ,")


def without_s(name: str) -> str:
    """`name` without a trailing "'s" (either apostrophe): "Nadia's still our cleaner" names Nadia."""
    return name[:-2] if name.endswith(("'s", "’s")) else name


def normal(text: str) -> str:
    """For comparing values: case, articles, spaces and trailing punctuation do not count."""
    return " ".join(clean_value(text).lower().replace("’", "'").split())


def is_first_person(word: str) -> bool:
    return word.lower().replace("’", "'") in FIRST_PERSON


def looks_like_name(value: str, *, lower_ok: bool = False) -> bool:
    """A proper name or product: capitalised words ("Dr. Amara", "Moore & Partners"), a word with a
    digit or a symbol inside ("fritzbox 7590", "disney+"), or, in lower-case chat, one or two words
    that are no common word."""
    words = value.split()
    if not words or len(words) > 6:
        return False
    if value.lower() in NOT_VALUES or all(w.lower() in NOT_VALUES for w in words):
        return False
    if words[0][:1].isupper() or any(ch.isdigit() for ch in value) or "+" in value:
        return True
    return lower_ok and len(words) <= 3 and not any(w.lower() in NOT_VALUES for w in words)


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9][a-z0-9'’+-]*", text.lower())


STOPWORDS = frozenset("""a an the and or but so of to in on at for with from by about as is are was were be been
being am i i'm im me my mine we our us you your he she it they them his her its their this that these those there
here what which who whom whose when where why how not no yes do does did done have has had having just still now
then than too very really also again ever even only more most some any all each every one can could would should
will shall may might must get got gets getting go going gone went make made like lol haha ok okay btw tbh pls please
thanks thank remember told tell know think said say says up out over into after before because if while though
although""".split())


def content_words(text: str) -> set[str]:
    """The words that carry meaning, for matching a message to what it is about."""
    return {_stem(w) for w in words_of(text) if w not in STOPWORDS and len(w) > 1}


def _stem(word: str) -> str:
    word = word.replace("’", "'")
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    for suffix in ("'s", "ies", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word
