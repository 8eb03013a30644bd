"""People in a message: who "my sister Ana", "Sofia (my wife)", "Hamid ... is my new manager" and
"we have a 7-year-old, Ruaridh" name, which relationship claims they state, and whom "he", "she"
and "they" point back to. Pure.

A named third person is someone in the user's life when the message names their relationship, an
earlier message of the conversation names them, or the tenant's memories already do (the caller
passes those names as `circle`). Anyone else ("Elon Musk lives in Texas", "the guy on the train")
is a stranger: nothing is derived about them."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from graph.ingestion.text import PRONOUNS, without_s
from graph.ingestion.vocabulary import BARE_KIN, GENDER_WORDS, LANGUAGES, NATIONALITIES, ROLES

_ROLE_WORDS = sorted(ROLES, key=len, reverse=True)
ROLE = r"(?:" + "|".join(re.escape(r) for r in _ROLE_WORDS) + r")"
TITLE = r"(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+"
NAME = (r"(?:" + TITLE + r")?[A-Z][\w’'-]*(?:\s+(?:[A-Z][\w’'-]*|N[ií]|de|da|van|von|Mc)(?=\s+[A-Z]|\b))*")
LOWER_NAME = r"[a-z][a-z’'-]{1,15}"
_NOT_NAMES = frozenset("""I I'm Im I've I'd I'll We We're Our My Me The A An And But So Then Just Now Still Also Yeah
Yes No Not Oh Ok Okay Hey Hi Thanks Sorry Please Remember Reminder Quick Got Can Could Would Should Did Do Does Is
Are Was Were Will It It's That This There Here What When Where Who Why How If As After Before Since Until Because
Everyone Someone Nobody Starting From For In On At By With Off Back Delete Forget Remove Scratch Don't Dont Saving
Our Their His Her Its Lol Haha Mum Mom Dad Grandad Grandma Granny Grandpa Monday Tuesday Wednesday Thursday Friday
Saturday Sunday January February March April May June July August September October November December Picked Add
Every Each Used Love Loves Happy Sadly Also Goal Payday Rent Maybe Honestly Actually Wait Oops Whoops Nah Anyway
Today Tomorrow Yesterday Tonight Our Ok Fav""".split())
_AFTER_LOWER_NAME = frozenset("""says said is was and or but so who which that to for from at in on with has had have
asked wants will would can could should just lol haha lives works moved passed died""".split())


@dataclass(frozen=True)
class Person:
    name: str  # as written, or "user's <role>" for an unnamed relative
    role: str | None  # the canonical relationship predicate, when the message names one
    start: int
    end: int
    gender: str | None = None  # "f" or "m" when the words that name them say it ("my sister Ana")


@dataclass
class People:
    """The people of one message, in order of mention, and who a pronoun means."""
    persons: list[Person] = field(default_factory=list)
    circle: set[str] = field(default_factory=set)  # lower-case names of people in the user's life
    recent: list[str] = field(default_factory=list)  # names mentioned in earlier messages, latest last
    genders: dict[str, str] = field(default_factory=dict)  # lower-case name -> "f" or "m", where said

    def known(self, name: str) -> bool:
        n = name.lower()
        return (n in self.circle or any(p.name.lower() == n for p in self.persons)
                or any(r.lower() == n for r in self.recent))

    def pronoun(self, before: int, word: str = "") -> str | None:
        """Whom a pronoun `word` at `before` means: the last person named before it, here or earlier,
        whom it fits ("he" is not "my sister Hannah")."""
        named = [p.name for p in self.persons if p.end <= before and not p.name.startswith("user's")
                 and self.fits(p.name, word)]
        if named:
            return named[-1]
        return next((n for n in reversed(self.recent) if self.fits(n, word)), None)

    def fits(self, name: str, word: str) -> bool:
        """Whether the pronoun `word` may mean `name`: unless the two say opposite genders."""
        said = PRONOUNS.get(word.lower().replace("’", "'"))
        known = self.genders.get(name.lower())
        return said not in ("f", "m") or known is None or known == said

    def mention(self, name: str) -> None:
        """A known person named as a subject: a later pronoun may mean them."""
        self.recent.append(name)


def is_name(word: str) -> bool:
    first = word.split()[0].rstrip(".")
    # A kin word said bare ("Nana moved to Whitby") is the user's relative, not someone so named; a
    # nationality or language alone ("my boyfriend is Italian") says where they are from.
    return bool(word) and word[:1].isupper() and first not in _NOT_NAMES and first.lower() not in BARE_KIN \
        and word.lower() not in NATIONALITIES | LANGUAGES


_PATTERNS = (
    # Sofia (my wife) / Ana, my sister, / Hamid from accounts is my new manager / Olu is my friend
    re.compile(r"(?P<name>" + NAME + r")\s*(?:\(|,)\s*(?i:my|our)\s+(?P<role>(?i:" + ROLE[3:] + r")\s*(?:\)|,)"),
    re.compile(r"(?P<name>" + NAME + r")(?:\s+from\s+\w+)?\s+(?i:is|'s|was)\s+(?i:still\s+)?(?i:my|our)\s+"
               r"(?i:new\s+|best\s+)?(?P<role>(?i:" + ROLE[3:] + r")\b"),
    # my boss is called Harriet / my boss is Harriet / my partner's name is Sam
    re.compile(r"\b(?i:my|our)\s+(?i:new\s+|other\s+|older\s+|younger\s+)?(?P<role>(?i:" + ROLE[3:] +
               r")(?:\s+(?i:is)|\s*['’]s)\s+"
               r"(?:(?i:called|named|name\s+is|name['’]s)\s+)?(?P<name>" + NAME + r")"),
    # we have a 7-year-old, Ruaridh
    re.compile(r"\b(?i:we|i)\s+(?i:have|'ve got|have got)\s+an?\s+(?P<age>\d{1,2})-year-old(?:\s+(?P<kid>son|daughter|"
               r"boy|girl))?,?\s+(?P<name>" + NAME + r")"),
    # my sister Ana / my husband Dev / our daughter Chloe / "my husband dev says hi"
    re.compile(r"\b(?i:my|our)\s+(?i:new\s+|old\s+|little\s+|big\s+|older\s+|younger\s+|best\s+|close\s+|oldest\s+|"
               r"dear\s+)?(?P<role>(?i:" + ROLE[3:] +
               r")(?:,?\s+(?P<name>" + NAME + r")|\s+(?P<lname>" + LOWER_NAME + r")(?=\s+(?:says|said|thinks|is|was|"
               r"and|lol|haha)\b|\s*[,.!?]|$))?"),
)


# "a guy called Rob", "a girl named Ifeoma": who they are is not said, whether "he" or "she" is.
_GENDERED_NAME = re.compile(r"(?i:\b(?P<w>" + "|".join(sorted(GENDER_WORDS)) + r")\s+(?:called|named))\s+(?P<name>"
                            + NAME + r")")


# "my sister's husband is Dan", "Tom's girlfriend is called Amy": someone in the life of someone the
# user knows, and no relationship of the user's; "he" or "she" may mean them after.
_THEIRS = re.compile(r"(?:\b(?i:my|our)\s+" + ROLE + r"|" + NAME + r")['’]s\s+(?P<role>(?i:" + ROLE[3:] + r")\s+"
                     r"(?i:is|'s)\s+(?:(?i:called|named)\s+)?(?P<name>" + NAME + r")")


def find_people(text: str, circle: set[str], recent: list[str], genders: dict[str, str] | None = None) -> People:
    people = People(circle={c.lower() for c in circle}, recent=list(recent), genders=dict(genders or {}))
    for m in _GENDERED_NAME.finditer(text):
        if is_name(m["name"]):
            people.genders[m["name"].lower()] = GENDER_WORDS[m["w"].lower()]
    for m in _THEIRS.finditer(text):
        if is_name(m["name"]):
            gender = GENDER_WORDS.get(" ".join(m["role"].lower().split()))
            people.persons.append(Person(m["name"], None, m.start("name"), m.end("name"), gender))
            if gender:
                people.genders[m["name"].lower()] = gender
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            groups = m.groupdict()
            role = ROLES.get(" ".join(groups["role"].lower().split())) if groups.get("role") else "child"
            name = groups.get("name") or groups.get("lname")
            if name and groups.get("lname") and name.lower() in _AFTER_LOWER_NAME:
                name = None
            if name and not groups.get("lname") and not is_name(name):
                name = None
            if name is None:
                name = f"user's {role}" if role else None
            if name is None:
                continue
            # "my mate Dan's a chef": the "'s" is the verb of what follows, no part of the mention.
            end = m.end() - 2 if without_s(m.group()) != m.group() else m.end()
            name = without_s(name)
            if any(p.start < m.end() and m.start() < p.end for p in people.persons):
                continue
            said = groups.get("role") or groups.get("kid") or ""
            gender = GENDER_WORDS.get(" ".join(said.lower().split()))
            people.persons.append(Person(name, role, m.start(), end, gender))
            if gender and not name.startswith("user's"):
                people.genders[name.lower()] = gender
    people.persons.sort(key=lambda p: p.start)
    return people


def names_in(text: str) -> list[str]:
    """Capitalised words that may name someone or something the tenant knows (the caller looks
    them up in the entity graph to build the circle)."""
    return [m.group() for m in re.finditer(NAME, text) if is_name(m.group())]
