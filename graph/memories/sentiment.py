"""A memory's sentiment, scored once at write time so sentiment over time is a query, not a rescan.

VADER (Hutto & Gilbert, 2014) is a lexicon and rule model made for short social text: it reads
negation ("not happy"), intensifiers ("really"), contrast ("but"), capitals and emoji, needs no
model and scores a sentence in well under a millisecond. The compound score runs from -1 (most
negative) to 1 (most positive); VADER's own convention reads |score| < 0.05 as neutral. Pure."""
from __future__ import annotations

from functools import cache

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

NEUTRAL_BAND = 0.05  # VADER's documented threshold: a compound score inside it is neutral


@cache
def _analyzer() -> SentimentIntensityAnalyzer:
    return SentimentIntensityAnalyzer()  # loads the lexicon once per process


def valence(word: str) -> float:
    """A word's valence in VADER's lexicon (-4..4), 0.0 for a word it does not hold."""
    return float(_analyzer().lexicon.get(word.lower(), 0.0))


def sentiment_of(text: str) -> float:
    """The text's compound sentiment, -1..1, rounded to 4 places (what is stored)."""
    return round(float(_analyzer().polarity_scores(text)["compound"]), 4)
