"""Query text as keyword-search terms. Pure.

Terms are lower-cased words without English function words: Lucene's standard analyzer keeps
stop words, so "what is the budget" would otherwise match nearly every memory through "the"
and "is", costing a scan of the index and drowning the one term that matters."""
from __future__ import annotations

import re

from graph.core.tenant_token import tenant_token
from graph.retrieval.lucene import escape

MAX_TERMS = 32
_WORD = re.compile(r"\w+")
STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most
my myself no nor not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves s t d ll m re ve
""".split())


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def terms(text: str) -> list[str]:
    """Distinct content words in order; only function words: those, so the query still searches."""
    all_words = list(dict.fromkeys(words(text)))
    content = [w for w in all_words if w not in STOPWORDS]
    return (content or all_words)[:MAX_TERMS]


def lucene_query(query_terms: list[str], agent: str) -> str | None:
    """One tenant's memories holding any of the terms (Lucene's default OR), each escaped. The
    tenant clause is required and boosted by 0, so it selects without scoring: a memory's BM25 is
    what the unrestricted index gives it. None when there is nothing to search."""
    escaped = [e for e in (escape(t) for t in query_terms) if e]
    if not escaped:
        return None
    return f"+tenant_token:{tenant_token(agent)}^0 +text:({' '.join(escaped)})"


def patterns(query_terms: list[str]) -> list[str]:
    """Whole-word regular expressions (Cypher's =~, a full match) for a small tenant's keyword scan.
    Terms are lower-case word characters; escaping them anyway keeps any term literal."""
    return [f"(?s).*\\b{re.escape(t)}\\b.*" for t in query_terms]


def hits(query_terms: list[str], text: str) -> list[str]:
    """The query terms that occur in a memory's text, as whole words."""
    present = set(words(text))
    return [t for t in query_terms if t in present]
