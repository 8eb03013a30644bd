"""Query text as keyword-search terms. Pure.

Terms are lower-cased words without English function words: Lucene's standard analyzer keeps
stop words, so "what is the budget" would otherwise match nearly every memory through "the"
and "is", costing a scan of the index and drowning the one term that matters. Keyword search
matches their stems against the stems each memory stores (graph/language/stems.py): `stemmed`
gives a search's terms as stems, each with the query's word it came from."""
from __future__ import annotations

from dataclasses import dataclass

from graph.core.tenant_token import tenant_token
from graph.language import stems as stemming
from graph.retrieval.lucene import escape

MAX_TERMS = 32
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
    return stemming.words(text)


def terms(text: str) -> list[str]:
    """Distinct content words in order; only function words: those, so the query still searches."""
    all_words = list(dict.fromkeys(words(text)))
    content = [w for w in all_words if w not in STOPWORDS]
    return (content or all_words)[:MAX_TERMS]


@dataclass(frozen=True)
class Terms:
    """A search's keyword terms: distinct stems, in order (what keyword search matches), and the
    query's first word of each (what explain shows)."""
    stems: tuple[str, ...] = ()
    words: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.stems)

    def word(self, term_stem: str) -> str:
        return self.words[self.stems.index(term_stem)]


def stemmed(query_terms: list[str]) -> Terms:
    """The terms as keyword search matches them: "hiking hikes" is one term, `hike`."""
    words: dict[str, str] = {}
    for term, term_stem in zip(query_terms, stemming.stem(query_terms), strict=True):
        words.setdefault(term_stem, term)
    return Terms(tuple(words), tuple(words.values()))


def lucene_query(term_stems: list[str], agent: str) -> str | None:
    """One tenant's memories whose stored stems hold any of these stems (Lucene's default OR), each
    escaped. The tenant clause is required and boosted by 0, so it selects without scoring. None
    when there is nothing to search."""
    escaped = [e for e in (escape(t) for t in term_stems) if e]
    if not escaped:
        return None
    return f"+tenant_token:{tenant_token(agent)}^0 +stems:({' '.join(escaped)})"


def needles(term_stems: list[str]) -> list[str]:
    """What a small tenant's keyword scan looks for in each memory's stored stems: each stem as a
    whole word (graph/language/stems.py)."""
    return [stemming.needle(t) for t in term_stems]


def hits(term_stems: list[str], text: str) -> list[str]:
    """The stems that a memory's text holds."""
    present = set(stemming.stem(words(text)))
    return [t for t in term_stems if t in present]
