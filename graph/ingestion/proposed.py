"""A claim for a stating sentence that no frame or pattern read one from, when the slot classifier
(slot_classifier.py) names the slot it fills: the predicate is the classifier's, the value and the
subject the parse's. Pure: it reads a parsed sentence and returns at most one claim.

The classifier reads the sentence as a whole ("shellfish makes me come out in hives" is about an
allergy, "been on the payroll at Tesco since May" about an employer) and knows no words; the parse
knows which words could be the value of that slot: a language, a nationality, a diet, an age or a
job noun for the predicates that take one; a name (a proper noun, a capitalised word past the first,
a word with a digit) for places, employers, people, products and open slots; else, for a taste or an
allergy, the noun the main verb is about. An open slot (`open`) is keyed by the thing the user owns
as "my X is Y" would key it ("our chimney sweep comes from Sootbusters": chimney_sweep); with no
owned thing it is a value only, whose slot the decision finds among the known memories or drops."""
from __future__ import annotations

import re
from datetime import date
from typing import Any

from graph.ingestion.claims import Found, owner_of, thing_predicate
from graph.ingestion.frames import (
    PROPER,
    TIME_WORDS,
    UNREAL,
    WHERE,
    Anchor,
    conditional,
    is_negated,
    noun_phrase,
    subject_of,
    title_of,
    wished,
)
from graph.ingestion.model import Draft
from graph.ingestion.people import People, is_name
from graph.ingestion.text import PHONE_NUMBER
from graph.ingestion.vocabulary import (
    DIETS,
    FAVORITE_PREFIX,
    JOB_HEADS,
    LANGUAGES,
    NATIONALITIES,
    NOT_VALUES,
    PREDICATES,
    ROLES,
)
from graph.language.times import find_times

OPEN = "open"  # the label of an open slot: a thing the user owns or uses, keyed by its own words
RULE = "slot classifier"
# Predicates whose value the parse reads by a word list or a shape, not a name.
_LEXICAL = {"speaks": LANGUAGES, "nationality": NATIONALITIES, "diet": DIETS}
# Predicates whose value may be a plain noun ("peanuts", "reality TV"), not only a name.
_NOUN_VALUE = frozenset({"likes", "dislikes", "allergy"})
# Predicates whose value has a shape of its own, read from the text, not the parse: a day of the year,
# an email address, a phone number.
_SHAPED = frozenset({"birthday", "email", "phone_number"})
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_MONTH = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\d{1,2}[/.]\d{1,2}")
_FIRST = frozenset({"i", "we", "me", "us", "my", "our"})
_PLACEHOLDER = re.compile(r"\[REDACTED[^\]]*\]")


def proposed_claim(doc: Any, label: str, offset: int, people: People, anchor: Anchor,
                   registered: dict[str, bool]) -> Found | None:
    """The claim the sentence `doc` makes in the slot `label` (a predicate or OPEN), or None when the
    sentence holds no value of that kind, the value's clause (or the main verb over it) is negated,
    wished, conditional or unreal, or the sentence is said of nobody in the user's life."""
    if label not in PREDICATES and label != OPEN and not label.startswith("favorite_"):
        return None
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return None
    owned = _owned(doc)
    said_of = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    owner = _possessor_of(said_of, offset, people, label, registered)
    if owner is None and label in _SHAPED:
        # A day, an address or a number is whoever's the clause holding it says ("remind me, my
        # sister's birthday falls on 2 May").
        owner = next((found for t in doc if t.dep_ in ("nsubj", "nsubjpass")
                      and (found := _possessor_of(t, offset, people, label, registered)) is not None), None)
    if owner is not None:
        # The thing said of is someone's ("Mum's birthday is ...", "Pickle's groomer is Fur Fun"): theirs.
        subject: str | None = owner
        owned = said_of
    elif owned is not None and label == OPEN:
        subject = "user"
    elif root.pos_ in ("VERB", "AUX"):
        subject = subject_of(root, offset, people, anchor)
    else:
        subject = anchor(root.idx - doc[0].idx)
    if subject is None and any(t.lower_ in _FIRST for t in doc) and (
            said_of is None or root.lemma_ == "be" or label in _NOUN_VALUE or label in _SHAPED):
        # Said by the user of the user: "Glasgow has been our base for a year", "shellfish makes me ill",
        # "you can reach me on ...".
        subject = "user"
    if subject is None and label in _SHAPED and (said_of is None or said_of.pos_ == "NOUN"):
        subject = "user"  # "Birthday's 9 November btw": chat drops the "my"
    if subject is None:
        return None
    if label in _SHAPED:
        return _shaped(doc, label, subject) if not _unsaid(root) else None
    skip = _not_values(doc, owned, subject)
    if said_of is not None and root.lemma_ != "be" and label not in _NOUN_VALUE:
        skip |= {t.i for t in said_of.subtree}  # who does something is not its value ("Dad's moved to ...")
    tok = _value_token(doc, label, skip)
    if tok is None:
        return None
    clause = _clause_verb(tok)
    if not _said(root, clause):
        return None
    # Said in a clause of its own, the value is that clause's subject's ("no, she's with Deloitte now,
    # I checked": her employer, not the user's); a person nobody in the user's life answers to, no
    # claim. A clause said of a thing ("the kids' GP is Dr Shah, I got it wrong") keeps the subject.
    said_by = None if clause is None or clause.i == root.i or (owned is not None and label == OPEN) else next(
        (c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if said_by is not None:
        person = subject_of(clause, offset, people, anchor)
        if person is None and said_by.pos_ in ("PROPN", "PRON"):
            return None
        if person is not None and person != subject:
            subject = person  # and the value is none of the new subject's words
            tok = _value_token(doc, label, _not_values(doc, owned, subject) | {t.i for t in said_by.subtree})
            if tok is None or (found := _clause_verb(tok)) is None or found.i != clause.i:
                return None
    if label in _LEXICAL:
        value = tok.text.lower() if label == "diet" else tok.text.capitalize()
    elif label == "age":
        value = tok.text
    elif label == "job_title":
        value = title_of(tok)
    else:
        value = noun_phrase(tok)
    if not value or len(value.split()) > 5:
        return None
    predicate: str | None = label
    if label == "likes" and owned is not None:
        # A taste stated of "my favourite X" fills the favourite X's slot ("sushi is my favourite food").
        slot = thing_predicate(_owned_words(owned), registered)
        if slot is not None and slot[0].startswith(FAVORITE_PREFIX):
            predicate = slot[0]
    if label == OPEN:
        # The owned thing keys the slot when the sentence says what it is ("our sweep is Sootbusters",
        # "our chimney sweep comes from Sootbusters"), not when it is what the verb acts on ("I keep
        # my recipes in Paprika"): then the value alone, for the decision to place or drop.
        named = owned is not None and owned.dep_ in ("nsubj", "nsubjpass", "attr", "ROOT")
        slot = thing_predicate(_owned_words(owned), registered) if named else None
        predicate = slot[0] if slot is not None else None
    start = tok.idx - doc[0].idx
    return Found(Draft(subject, predicate, value), start, start + len(tok.text), RULE)


def _possessor_of(noun: Any, offset: int, people: People, label: str, registered: dict[str, bool]) -> str | None:
    """Whose the noun is when a possessor other than the user says so ("Mum's birthday", "Pickle's
    groomer"): a relative or someone the user knows; else None. Only for a noun said to be something or
    naming the slot itself: a possessed noun that does something is someone of its own ("my friend's
    cousin works at Ocado")."""
    if noun is None or noun.pos_ != "NOUN" or noun.lower_ in ROLES:
        return None
    slot = thing_predicate(_owned_words(noun), registered)
    if noun.head.lemma_ != "be" and (slot is None or slot[0] != label):
        return None
    poss = next((c for c in noun.children if c.dep_ == "poss" and c.lower_ not in _FIRST), None)
    if poss is None:
        return None
    words = list(poss.subtree)
    said = noun.doc.text[words[0].idx - noun.doc[0].idx:words[-1].idx - noun.doc[0].idx + len(words[-1].text)]
    found = owner_of(said, people, offset + poss.idx - noun.doc[0].idx)
    return None if found == "user" else found


def _shaped(doc: Any, label: str, subject: str) -> Found | None:
    """The claim of a slot whose value has a shape of its own: the first day of the year (a month
    named, or a day/month in digits), email address or phone number (seven digits or more) the
    sentence holds."""
    text = doc.text
    if label == "birthday":
        day = next((m for m in find_times(text, date(2000, 1, 1))
                    if m.kind == "day" and m.relation in (None, "on") and _MONTH.search(m.text)), None)
        if day is None:
            return None
        value, start, end = re.sub(r"(?i)^(?:on\s+)?the\s+|^on\s+", "", day.text), day.start, day.end
    else:
        shaped = next((m for m in (_EMAIL if label == "email" else PHONE_NUMBER).finditer(text)
                       if label == "email" or sum(ch.isdigit() for ch in m.group()) >= 7), None)
        if shaped is None:
            return None
        value, start, end = shaped.group(), shaped.start(), shaped.end()
    return Found(Draft(subject, label, value), start, end, RULE)


def _owned(doc: Any) -> Any:
    """The thing the sentence says the user has: "my/our X", or "the X" as the subject of "is"."""
    for tok in doc:
        # The small model tags some lower-case nouns as names: a thing all the same.
        if (tok.pos_ == "NOUN" or (tok.pos_ == "PROPN" and tok.text.islower())) and any(
                c.dep_ == "poss" and c.lower_ in ("my", "our") for c in tok.children):
            return tok
    for tok in doc:
        # "the X is Y", "the X is called Y"
        if tok.pos_ == "NOUN" and ((tok.dep_ == "nsubj" and tok.head.lemma_ == "be") or (
                tok.dep_ == "nsubjpass" and tok.head.lemma_ in ("call", "name"))) and any(
                c.dep_ == "det" and c.lower_ == "the" for c in tok.children):
            return tok
    return None


def _owned_words(noun: Any) -> str:
    return " ".join([c.text for c in noun.lefts if c.dep_ in ("compound", "amod")] + [noun.text])


def _not_values(doc: Any, owned: Any, subject: str) -> set[int]:
    """Token positions no value is read from: the owned thing's words and the subject's name."""
    out: set[int] = set()
    if owned is not None:
        out |= {t.i for t in owned.subtree if t.i <= owned.i}
    low = subject.lower()
    out |= {t.i for t in doc if t.lower_ in low.split() or t.lower_ in _FIRST}
    return out


def _unsaid(verb: Any) -> bool:
    """A verb that says what is not so, or not yet: negated, wished, conditional or unreal."""
    return is_negated(verb) or wished(verb) or conditional(verb) or any(
        c.dep_ == "aux" and c.lower_ in UNREAL for c in verb.children)


def _said(root: Any, clause: Any) -> bool:
    """Whether the clause holding the value states it: neither it nor the main verb says what is not
    so, unless the value stands in a clause of its own beside the main one ("Dmitri is still my tutor,
    wouldn't learn from anyone else": the tutor is said; "I don't think Tom lives in Leeds": not)."""
    if clause is None or clause.i == root.i:
        return not _unsaid(root)
    if _unsaid(clause):
        return False
    # A complement said before its verb is a clause of its own, spliced by a comma (the tutor clause
    # above parses as the complement of "learn").
    beside = clause.dep_ in ("advcl", "conj", "parataxis") or (clause.dep_ == "ccomp" and clause.i < clause.head.i)
    return beside or not _unsaid(root)


def _clause_verb(tok: Any) -> Any:
    """The verb of the clause a token stands in (the nearest verb above it), or None."""
    head = tok.head
    for _ in range(6):
        if head.pos_ in ("VERB", "AUX"):
            return head
        if head.head.i == head.i:
            return None
        head = head.head
    return None


def _redacted(doc: Any) -> set[int]:
    """Token positions inside a redaction placeholder ("[REDACTED:password]"): never a value."""
    spans = [(m.start(), m.end()) for m in _PLACEHOLDER.finditer(doc.text)]
    base = doc[0].idx
    return {t.i for t in doc if any(a <= t.idx - base < b for a, b in spans)}


def _named(tok: Any) -> bool:
    """A word that names something: a proper noun, a capitalised word past the first, a word with a
    digit (the small model tags some names as verbs)."""
    return tok.pos_ not in ("PRON", "DET", "ADP", "AUX", "PUNCT", "CCONJ", "SCONJ") and (
        tok.pos_ == "PROPN" or (tok.text[:1].isupper() and tok.i > 0) or any(ch.isdigit() for ch in tok.text))


def _placed(tok: Any) -> bool:
    """Whether `tok` is (in) the object of a preposition of place: "in Leeds", "over in Leeds"."""
    while tok.dep_ in ("compound", "flat") and tok.head.i != tok.i:
        tok = tok.head
    return tok.dep_ == "pobj" and tok.head.lower_ in WHERE


def _value_token(doc: Any, label: str, skip: set[int]) -> Any:
    # A possessor owns the thing the sentence is about and is not its value ("Omar's new flat").
    skip = skip | _redacted(doc) | {t.i for t in doc if t.dep_ == "poss"}
    usable = [t for t in doc if t.i not in skip and t.lower_ not in NOT_VALUES and t.lower_ not in TIME_WORDS
              and t.lower_ not in ROLES]
    if label in _LEXICAL:
        return next((t for t in usable if t.lower_ in _LEXICAL[label]), None)
    if label in PROPER:  # a place or an employer is no language ("get by in Italian")
        usable = [t for t in usable if t.lower_ not in LANGUAGES and t.lower_ not in NATIONALITIES]
    if label == "works_at":  # "in Munich, on the payroll at Siemens": Munich is where, Siemens who
        usable = [t for t in usable if not _placed(t)]
    if label == "age":
        return next((t for t in usable if t.pos_ == "NUM" and t.text.isdigit() and 0 < int(t.text) < 120), None)
    if label == "job_title":
        return next((t for t in usable if t.pos_ == "NOUN" and t.lemma_.lower() in JOB_HEADS), None)
    person = (label in PREDICATES and PREDICATES[label].person) or label in ("name", "nickname", "pet")
    # The head of a name: a named word not joined into a longer name after it ("Kia" in "Kia Niro").
    names = [t for t in usable if _named(t) and not (t.dep_ in ("compound", "flat") and _named(t.head)
                                                      and t.head.i not in skip)]
    if person:
        names = [t for t in names if is_name(t.text)]
    if names:
        return names[0]
    if label in _NOUN_VALUE:
        return next((t for t in usable if t.pos_ == "NOUN" and t.dep_ in ("dobj", "pobj", "nsubj", "attr")), None)
    return None
