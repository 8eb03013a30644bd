"""Claims in a sentence: (subject, predicate, value) for the canonical predicates, phrased many ways,
in the first and the third person, and open slots ("my X is Y", "Y is my new X"). Pure.

A sentence is cut into clauses at each mention of someone (I, we, a named person in the user's
life, he/she/who): each clause's subject is that mention, and the verb patterns below run on what
follows it. "my X is Y" and "Y is my X" are read over the whole sentence, with X naming the
predicate: a relationship noun, a canonical thing (car, phone, email...), "favourite X", one of the
tenant's registered predicates, or else an open slot keyed by X."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from graph.ingestion.model import Draft
from graph.ingestion.people import NAME, People, is_name
from graph.ingestion.text import PHONE_NUMBER, clean_value, is_first_person, looks_like_name, without_s
from graph.ingestion.vocabulary import (
    ANIMALS,
    DEVICE_WORDS,
    DIETS,
    FAVORITE_PREFIX,
    INSTITUTIONS,
    JOB_HEADS,
    LANGUAGES,
    NATIONALITIES,
    NOT_THINGS,
    NOT_VALUES,
    PHONE_BRANDS,
    PREDICATES,
    ROLES,
    THING_PREDICATES,
)
from graph.language import find_times


@dataclass(frozen=True)
class Found:
    draft: Draft
    start: int  # in the sentence
    end: int
    rule: str
    negated: bool = False  # "no longer at X", "not at X anymore": what it names has ended
    correction_of: str | None = None  # "35, not 36": the value said to be wrong
    succeeds: str | None = None  # "left Monzo for Starling": the value this one takes over from (Monzo)


_BE = r"(?:'m|’m|'s|’s|'re|’re|\s+am|\s+is|\s+are|\s+was|\s+were|\s+be|m\b)"
_ADV = (r"(?:\s+(?:used\s+to|use\s+to|still|now|also|actually|currently|mostly|properly|finally|just|originally|"
        r"really|basically|officially|technically|a\s+bit|kind\s+of|pretty\s+much))*")
_CAP = r"[A-ZÀ-Ý][\w’'.&+-]*"
_PLACE = _CAP + r"(?:\s+(?:" + _CAP + r"|de|do|da|del|am|upon|on|le|la|sur)(?=\s+[A-ZÀ-Ý]))*(?:\s+" + _CAP + r")?"
_ORG = (_CAP + r"(?:\s+(?:" + _CAP + r"|&|of|de|the|for|and)(?=\s+[A-ZÀ-Ý&]))*(?:\s+(?:" + _CAP + r"|&\s+" + _CAP
        + r"))?")
_INSTITUTION = r"(?:" + "|".join(sorted(INSTITUTIONS, key=len, reverse=True)) + r")"
_ORG_LOWER = (r"[a-z][\w’'.-]*(?:\s+[a-z][\w’'.-]*){0,3}\s+" + _INSTITUTION + r"\b|[a-z][a-z0-9]{2,20}(?=\s+(?:before|"
              r"after|now|for|since|as|until|these)\b|\s*[,.!]|$)")
_NP = r"[\w’'&+-]+(?:\s+[\w’'&+-]+){0,3}?"
_STOP = (r"(?=\s*(?:[,;:!?()—–]|(?<!Dr)(?<!Mr)(?<!Ms)(?<!Mrs)(?<!St)(?<!Prof)(?<!\s[A-Z])\.(?=\s|$)|\s-\s|$)|"
         r"\s+(?:but|so|because|since|when|if|tbh|btw|lol|haha|though|and\s+(?:i|we|my|"
         r"she|he|they|it)\b|which|who|now|these\s+days|anymore|any\s+more|too|as\s+well|sometimes|especially|"
         r"at\s+the\s+moment|right\s+now|for\s+(?:me|now|the|reading|drawing|work|everything)|in\s+case|obviously|"
         r"way|on\s+\w+days?|[\U0001F000-\U0001FAFF]))")


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# -- verb patterns, run on a clause that starts right after its subject ---------------------------
_LIVES = (
    _c(r"^(?:" + _BE + r")?" + _ADV + r"\s+(?i:live|lives|living|based|settled|staying|stay)(?:\s+(?i:right\s+)?now)?"
       r"\s+(?i:in|at)\s+(?P<v>" + _PLACE + r")"),
    _c(r"^(?:" + _BE + r")?" + _ADV + r"\s+(?i:(?:have\s+|'ve\s+)?(?:moved|moving|relocated|relocating|move|relocate|"
       r"moved\s+back|moving\s+back|going\s+back))\s+(?i:back\s+)?(?i:to)\s+(?P<v>" + _PLACE + r")"),
    _c(r"^" + _BE + _ADV + r"\s+(?i:in)\s+(?P<v>" + _PLACE + r")\s+(?i:now|these\s+days)\b"),
)
_HOMETOWN = (
    _c(r"^" + _BE + _ADV + r"\s+(?i:from)\s+(?P<v>" + _PLACE + r")"),
    _c(r"^" + _ADV + r"\s+(?i:grew\s+up|was\s+raised)\s+(?i:in)\s+(?P<v>" + _PLACE + r")"),
)
_WORKS = (
    _c(r"^(?:" + _BE + r")?" + _ADV + r"\s+(?i:work|works|working|worked)\s+(?i:at|for)\s+(?P<v>" + _ORG + r"|" +
       _ORG_LOWER + r")"),
    _c(r"^" + _BE + _ADV + r"\s+(?i:at)\s+(?P<v>" + _ORG + r")"),
    _c(r"(?:^(?:" + _BE + r")?" + _ADV + r"|\s+(?i:and|then|now|so))\s+(?i:joined|joining|join|"
       r"started\s+a\s+new\s+job\s+at|got\s+a\s+job\s+at|hired\s+(?:at|by))\s+(?P<v>" + _ORG + r")"),
    _c(r"(?i:\bjob|\brole|\bposition|\bgig)\s+(?i:at|with)\s+(?P<v>" + _ORG + r")"),
    _c(r"^" + _BE + _ADV + r"\s+(?i:an?|the)\s+(?:[\w-]+\s+){0,3}?(?i:"
       + "|".join(sorted(JOB_HEADS, key=len, reverse=True))
       + r")\s+(?i:at|for|with)\s+(?P<v>" + _ORG + r"|" + _ORG_LOWER + r")"),
)
_WORKS_END = (
    _c(r"^" + _BE + r"\s+(?i:no\s+longer|not)(?:\s+(?i:working))?\s+(?i:at|with|for)\s+(?P<v>" + _ORG + r")"),
    _c(r"^(?:" + _BE + r")?" + _ADV + r"\s+(?i:left|quit|leaving|quitting)\s+(?P<v>" + _ORG + r")"),
)
_JOB_NP = r"(?P<j>(?:[\w-]+\s+){0,3}?(?i:" + "|".join(sorted(JOB_HEADS, key=len, reverse=True)) + r"))(?![\w-])"
_JOB = (
    _c(r"^" + _BE + _ADV + r"\s+(?i:an?|the)\s+(?!(?i:only)\b)" + _JOB_NP),
    _c(r"^(?:" + _BE + r")?" + _ADV + r"\s+(?i:work|works|working)\s+as\s+(?i:an?|the)\s+" + _JOB_NP),
    _c(r"(?i:\bas\s+an?)\s+" + _JOB_NP),
)
_DIET = (_c(r"^(?:" + _BE + r"|\s+(?i:being))?" + _ADV + r"\s+(?i:an?\s+|strictly\s+|mostly\s+|fully\s+)*(?P<v>(?i:" +
            "|".join(DIETS) + r"))\b"),)
_ALLERGY = (_c(r"(?i:allergic)\s+(?i:to)\s+(?P<v>" + _NP + r")" + _STOP),
            _c(r"(?i:can't|cannot|can’t|can\s+not)\s+(?i:eat|have)\s+(?P<v>" + _NP + r")" + _STOP))
_LANG = r"(?i:" + "|".join(sorted(LANGUAGES, key=len, reverse=True)) + r")"
_SPEAKS = (_c(r"^" + _ADV + r"\s+(?i:speak|speaks|speaking)\s+(?P<v>(?:(?i:a\s+little|a\s+bit\s+of|some|fluent|"
              r"basic|decent|good|bad)\s+)?" + _LANG + r"(?:\s*(?:,|and|&)\s*(?:(?i:a\s+little|a\s+bit\s+of|some|"
              r"fluent|basic)\s+)?" + _LANG + r")*)"),)
_LIKES = (_c(r"^" + _ADV + r"(?:\s+(?i:love|loves|adore|adores|like|likes|enjoy|enjoys))+\s+(?P<v>" + _NP + r")" +
             _STOP),
          _c(r"^" + _BE + _ADV + r"\s+(?i:a\s+)?(?i:big\s+|huge\s+)?(?i:fan\s+of|into|obsessed\s+with|crazy\s+about|"
             r"mad\s+about)\s+(?P<v>" + _NP + r")" + _STOP))
_DISLIKES = (_c(r"^" + _ADV + r"\s+(?i:hate|hates|dislike|dislikes|detest|detests|can't\s+stand|cannot\s+stand|"
                r"can’t\s+stand|don't\s+like|do\s+not\s+like|doesn't\s+like|don’t\s+like)\s+(?P<v>" + _NP + r")" +
                _STOP),
             _c(r"^(?:" + _BE + r")?\s*(?i:not)\s+(?i:a\s+)?(?i:big\s+)?(?i:fan\s+of|into)\s+(?P<v>" + _NP + r")" +
                _STOP),
             _c(r"(?i:\badd)\s+(?P<v>" + _NP + r")\s+(?i:to)\s+(?i:my|our)\s+(?i:no-go|no\s+go|avoid|hate|never)\s+"
                r"(?i:list)"))
_VEHICLE = r"(?P<v>[\w’'-]+(?:\s+[\w’'-]+){0,2}?)"
_CAR = (_c(r"^(?:" + _BE + r")?" + _ADV + r"\s+(?i:drive|drives|driving|drove)\s+(?i:an?|the)\s+" + _VEHICLE +
           r"(?=\s*[,.!?]|\s+(?i:these|now|nowadays|at|to|for|which|but|and)\b|$)"),)
_ANIMAL = r"(?i:" + "|".join(sorted(ANIMALS, key=len, reverse=True)) + r")"
_PET = (
    _c(r"(?i:have|has|got|adopted|getting|get)\s+(?i:an?|a\s+new|another)\s+(?:\w+\s+)?(?P<a>" + _ANIMAL +
       r")(?:\s+(?i:puppy|kitten))?(?:\s+(?i:too|as\s+well))?(?:\s*,?\s+(?i:called|named)\s+(?P<v>" + NAME + r")|"
       r"\s*,\s*(?P<v2>" + NAME +
       r")(?=\s*[.!]|$))?"),
    _c(r"(?i:\bour|\bmy)\s+(?i:new\s+|old\s+|second\s+|other\s+)?(?P<a>" + _ANIMAL + r")(?:\s+(?i:is|'s)\s+an?\s+"
       r"\w+)?\s+(?i:called|named)\s+(?P<v>" + NAME + r")"),
    _c(r"(?i:\bour|\bmy)\s+(?i:new\s+|old\s+|second\s+|other\s+)?(?P<a>" + _ANIMAL + r")\s+(?P<v>" + NAME + r")"),
    _c(r"(?P<v>" + NAME + r")\s*(?:\(|,)?\s*(?i:is\s+)?(?i:our|my)\s+(?i:new\s+|old\s+|second\s+|little\s+)?(?:\w+\s+)?"
       r"(?P<a>" + _ANIMAL + r")"),
)
_DEVICE_NP = r"(?P<v>(?:[\w’'+-]+\s+){0,2}?(?i:" + "|".join(sorted((w for w in DEVICE_WORDS if " " not in w),
                                                                  key=len, reverse=True)) + \
             r"|steam\s+deck|apple\s+watch)(?:\s+(?i:pro|air|mini|max|plus|paperwhite|oasis|\d+\w*(?!\s+(?:times|hours|days|x)\b)))*)"
_DEVICE = (_c(r"(?i:\buse|\buses|\busing|\brocking|\brunning|(?:'m|’m|\bam|'re|’re|\bare)\s+on|\bwork\s+on|\bhave|"
              r"\bgot|\bbought|\bpicked\s+up|\bown|\bget)\s+(?i:an?|my|"
              r"the)\s+" + _DEVICE_NP + r"\b"),
           _c(r"(?i:\band|,)\s+(?i:an?)\s+" + _DEVICE_NP + r"\s+(?i:for)\b"))
_DEVICE_END = (_c(r"(?i:don't|do\s+not|don’t|no\s+longer)\s+(?i:have|own|use)\s+(?i:the|my|a)\s+" + _DEVICE_NP),
               _c(r"(?i:sold|gave\s+away|lost|broke)\s+(?i:my|the)\s+" + _DEVICE_NP))
_AGE = (_c(r"^" + _BE + _ADV + r"\s+(?P<v>\d{1,3})(?:\s+(?i:years?\s+old|yo))?(?!\s*(?:k|%|mg|am|pm|:|/|\.\d))\b"),
        _c(r"(?i:\bjust\s+turned|\bturned|\bturning)\s+(?P<v>\d{1,3})\b"))
_NATIONALITY = (_c(r"^" + _BE + _ADV + r"\s+(?P<v>(?i:" + "|".join(sorted(NATIONALITIES, key=len, reverse=True)) +
                   r"))\b(?!\s+(?i:food|cuisine|restaurant))"),
                # "I've had a British passport since 2019", "I hold an Irish passport"
                _c(r"^(?:\s*(?:'ve|’ve|\s+have|\s+has|'d|\s+had))?" + _ADV + r"\s+(?i:have|has|had|hold|holds|held|"
                   r"got|get|carry|carries)\s+(?i:an?|my)\s+(?P<v>(?i:"
                   + "|".join(sorted(NATIONALITIES, key=len, reverse=True)) + r"))\s+(?i:passport)\b"))
_NICKNAME = (_c(r"(?i:\bcall|\bcalls|\bcalled)\s+me\s+(?P<v>" + NAME + r")"),
             _c(r"(?i:\bbut)\s+(?P<v>" + NAME + r")\s+(?i:is\s+fine|works)"))
_NAME = (_c(r"(?i:\bmy\s+name\s+is|\bmy\s+name's|\bfull\s+name(?:\s+is)?|\bi'm\s+called)\s+(?P<v>" + NAME + r")"),
         # An introduction: "Hi, I'm Dana", "Quick intro: I'm Dana Whitfield, 29, ..." (the name ends its clause)
         _c(r"(?:^|[:;]\s*|(?i:\b(?:hi|hello|hey|hiya))[,!]?\s+)(?i:i'm|i’m|i\s+am)\s+(?P<v>" + NAME
            + r")(?=\s*(?:[,.!;]|$|\s+(?i:and|here)\b))"))
_STUDIES = (_c(r"^(?:" + _BE + r")?" + _ADV + r"\s+(?i:studies|studying|study|enrolled)\s+(?i:at)\s+(?:(?i:the)\s+)?"
               r"(?P<v>" + _ORG +
               r")"),)
_STARTED_AT = _c(r"^" + _ADV + r"\s+(?i:started|starting|starts)\s+(?i:at)\s+(?P<v>" + _ORG + r")")
_VALUE_ONLY = (_c(r"^" + _BE + _ADV + r"\s+(?i:on)\s+(?P<v>" + _CAP + r"(?:\s+" + _CAP
                  + r")*)\s+(?i:now|these\s+days)"),
               _c(r"^" + _ADV + r"\s+(?i:switched|changed|moved\s+over|went\s+over|swapped)\s+(?i:over\s+)?(?i:to)\s+"
                  r"(?P<v>" + _CAP + r"(?:\s+" + _CAP + r")*)"))
# A place or service the subject no longer goes to or uses: "I no longer go to PureGym", "don't shop at
# Lidl anymore". Its slot is unsaid; the decision ends the known memory that names it.
_VALUE_END = (_c(r"(?i:no\s+longer)\s+(?i:go|goes|shop|shops|use|uses)\s+(?i:(?:to|at|with)\s+)?(?P<v>" + _CAP
                 + r"(?:\s+" + _CAP + r")*)"),
              _c(r"(?i:don't|do\s+not|don’t|doesn't|does\s+not|doesn’t)\s+(?i:go|shop|use)\s+(?i:(?:to|at|with)\s+)?"
                 r"(?P<v>" + _CAP + r"(?:\s+" + _CAP + r")*)(?=.*\b(?i:anymore|any\s+more)\b)"))

VERB_RULES: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...] = (
    ("lives_in", _LIVES), ("hometown", _HOMETOWN), ("works_at", _WORKS), ("job_title", _JOB), ("diet", _DIET),
    ("allergy", _ALLERGY), ("speaks", _SPEAKS), ("likes", _LIKES), ("dislikes", _DISLIKES), ("car", _CAR),
    ("age", _AGE), ("nationality", _NATIONALITY), ("studies_at", _STUDIES),
)
# Said of the user whatever the clause: "Everyone calls me Beto", "Full name Marta Kowalczyk".
SENTENCE_RULES: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...] = (
    ("nickname", _NICKNAME), ("name", _NAME), ("dislikes", (_DISLIKES[2],)),
)

# -- "my X is Y" and "Y is my X" ---------------------------------------------------------------------
# "the new X" is the user's too: what is new in a user's life is theirs ("the new landlord is Mr. Okoye").
_ROLE = r"(?i:" + "|".join(re.escape(r) for r in sorted(ROLES, key=len, reverse=True)) + r")"
_OWNER = (r"(?P<o>(?:(?i:my|our)\s+)" + _ROLE + r"(?:'s|’s)|(?i:mum|mom|dad|father|mother)(?:'s|’s)|"
          r"(?i:my|our|his|her|their|(?:the\s+)?user(?:'s|’s)|the(?=\s+new\s))|" + NAME + r"(?:'s|’s))")
_THING = (r"(?P<x>(?:(?i:new|current|usual|regular|favourite|favorite|fav|fave)\s+)?[a-zA-Z][\w-]*"
          r"(?:\s+[a-z][\w-]*){0,2}?)")
_IS = r"\s*(?:\s(?i:is|are|'s|was)|\s*=|’s|'s)\s+(?P<adv>(?:(?i:now|still|actually|also|currently|called|named)\s+)*)"
_MY_X_IS_Y = _c(r"(?<![\w'’])" + _OWNER + r"\s+" + _THING + _IS + r"(?P<y>.+?)" + _STOP)
# Not a favourite said of someone else ("Lena's favourite band", "his fav film"): the owned-thing
# patterns read that one with its owner.
_FAV_EQ = _c(r"(?<!['’]s\s)(?<!\bhis\s)(?<!\bher\s)(?<!\btheir\s)(?i:\bfav|\bfave|\bfavourite|\bfavorite)\s+"
             r"(?P<x>[a-z]+)(?:\s+(?i:of\s+all\s+time|ever|atm|these\s+days|"
             r"right\s+now|at\s+the\s+moment|lately|nowadays|now))?\s*(?:=|:|"
             r"(?<=\s)(?i:is|are)\b)\s*(?P<y>.+?)" + _STOP)  # "is" a word of its own, not the end of "dish"
# A label and its value, chat style: "New dentist: Dr. Okafor", "our wifi provider - Zen".
_LABELLED = _c(r"^(?i:new|my|our|current)\s+(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s*(?::|=|\s[-–—])\s*"
               r"(?P<y>.+?)" + _STOP)
_Y_IS_MY_X = _c(r"(?P<y>(?<![\w])[\w’'&+.-]+(?:\s+[\w’'&+.-]+){0,3}?)\s+(?i:is|are)\s+(?i:still\s+|now\s+|also\s+)?"
                r"(?P<o>(?i:my|our))\s+(?P<new>(?i:new\s+|current\s+)?)(?P<x>(?i:fav(?:ourite|orite|e)?\s+)?[a-z][\w-]*"
                r"(?:\s+[a-z][\w-]*){0,2}?)(?=\s*(?:[,.;!?]|$)|\s+(?i:now|these\s+days|though|too|and|but|same|from|"
                r"for|lol|since)\b)")


_NOW_WORDS = re.compile(r"(?i)\s+(?:these\s+days|nowadays|right\s+now|now|atm|rn|at\s+the\s+moment|lately|currently|"
                        r"this\s+(?:year|month|week|term|season|summer|winter|spring|autumn))$")


def thing_predicate(noun: str, registered: dict[str, bool]) -> tuple[str, bool] | None:
    """The predicate "my <noun>" names, and whether it is an open slot; None for no owned thing."""
    noun = _NOW_WORDS.sub("", noun)  # "my favourite band these days is ..."
    words = noun.lower().replace("favourite", "favorite").replace("fave", "fav").split()
    while words and words[0] in ("new", "current", "usual", "regular", "first", "old", "previous", "former", "other",
                                 "second", "older", "younger", "little", "big", "go-to", "local", "trusty"):
        words = words[1:]
    if len(words) > 1 and words[0] in ("best", "closest", "oldest", "dear", "good") and " ".join(words[1:]) in ROLES:
        words = words[1:]  # "my best mate", "my closest friend": the role
    if not words:
        return None
    if len(words) > 1 and words[0] in ("absolute", "all-time", "top", "very", "ultimate") and words[1] in (
            "favorite", "fav"):
        words = words[1:]  # "my absolute favourite food"
    if words[0] in ("favorite", "fav"):
        return (FAVORITE_PREFIX + "_".join(words[1:]), True) if len(words) > 1 else None
    phrase = " ".join(words)
    if phrase in ROLES:
        return ROLES[phrase], False
    if phrase in THING_PREDICATES:
        return THING_PREDICATES[phrase], False
    if phrase in ANIMALS:
        return "pet", False  # "my puppy", "our greyhound": the user's pet, whatever the animal
    key = "_".join(words).replace("-", "_")  # a slot's key is words and underscores: "sister-in-law" -> sister_in_law
    if key in registered or key in PREDICATES:
        return key, False
    # The last word says what the thing is: "home insurance" is insurance, "life coach" a coach.
    if words[-1] in NOT_THINGS or len(words) > 3:
        return None
    qualified = _qualified_thing(words)
    if qualified is not None:
        return qualified, False
    return key, True


# What a qualifier leaves the same kind of thing: a device, a vehicle, a phone or an address to
# reach someone at ("my work email", "my work car", "my old work laptop"). Attributes ("name",
# "number", "title") are left out: "my account number" is no phone number.
_QUALIFIABLE = frozenset({"email", "phone", "phone_number", "device", "car"})


def _qualified_thing(words: list[str]) -> str | None:
    """The canonical predicate of a thing said with a qualifier before it: the last one or two
    words name a device, vehicle or contact of the vocabulary ("work email" -> email), else None."""
    for n in (2, 1):
        tail = " ".join(words[-n:])
        if len(words) > n and tail != "number" and THING_PREDICATES.get(tail) in _QUALIFIABLE:
            return THING_PREDICATES[tail]
    return None


def _value(raw: str, predicate: str) -> str | None:
    # "my birthday is on the 9th of August"; "our mortgage is with Nationwide": the provider
    raw = re.sub(r"(?i)^(?:on|at|with)\s+", "", raw.strip())
    raw = re.sub(r"(?i)^name\s+is\s+", "", raw)  # "my accountant's name is Olga"
    called = re.search(r"(?i)\b(?:called|named)\s+(.+)$", raw)
    if called:
        raw = called.group(1)
    raw = re.split(r"(?i)\s+(?:at|in|on|from|who|which|that|with|near|by)\s+|\s*[,(]|\s+-\s+", raw)[0]
    # A hedge before the value is no part of it, and another thing of the user's is no name: "my
    # therapist is basically my dog".
    raw = re.sub(r"(?i)^(?:basically|literally|practically|pretty\s+much|kind\s+of|sort\s+of|more\s+or\s+less|"
                 r"essentially|effectively)\s+", "", raw.strip())
    value = clean_value(raw)
    if not value or raw.lower().startswith(("my ", "our ")) or value.lower().startswith(
            ("my ", "our ", "the ", "a ", "an ", "his ", "her ")):
        return None
    if predicate != "birthday" and (find_times(value, date(2000, 1, 1)) or re.match(r"(?i)\w+ing\b", value)):
        return None  # a date or a verb is no owned thing's value ("our anniversary is June 12th")
    canonical = PREDICATES.get(predicate)
    if predicate == "email":
        m = re.search(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", value)
        return m.group() if m else None
    if predicate == "pet" and value.isdigit():
        return None  # "our dog is 3": its age, no name
    if canonical and canonical.person:
        return value if (is_name(value) or re.fullmatch(r"[a-z]{2,15}", value)) and len(value.split()) <= 3 else None
    return value if looks_like_name(value, lower_ok=True) else None


def _owned_thing(noun: str, registered: dict[str, bool]) -> tuple[str, bool] | None:
    """thing_predicate, but not for a relationship noun (people.py reads those)."""
    thing = thing_predicate(noun, registered)
    return None if thing is None or thing[0] in ROLES.values() else thing


def possessive_claims(sentence: str, people: People, offset: int, registered: dict[str, bool]
                      ) -> Iterator[tuple[Found, bool]]:
    """ "my X is Y", "NAME's X is Y", "fav X = Y", "Y is my X": (found, open slot?)."""
    for m in _MY_X_IS_Y.finditer(sentence):
        if (thing := thing_predicate(m["x"], registered)) is None:
            continue
        predicate, open_slot = thing
        subject = owner_of(m["o"], people, offset + m.start())
        if predicate in ROLES.values() and subject == "user":
            continue  # the user's own relationships are people.py's; another's ("Tom's wife is Sara") are here
        value = _value(sentence[m.start("y"):] if predicate == "email" else m["y"], predicate)
        if (value is None or value.lower() in _SOMEONE) and _SOMEONE_FIRST.match(m["y"]):
            # "my mechanic is the guy at Spokes, Dmitri": a person said generically is no value; the
            # name after the comma is (none: nothing). "a guy called Pieter" has its value already.
            named = _NAME_AFTER.match(sentence, m.end())
            value = named["n"] if named and is_name(named["n"]) else None
        if subject is None or value is None:
            continue
        yield Found(Draft(subject, predicate, value), m.start(), m.end(), "my X is Y"), open_slot
    for m in _LABELLED.finditer(sentence):
        if (thing := _owned_thing(m["x"], registered)) is None:
            continue
        value = _value(m["y"], thing[0])
        if value is not None:
            yield Found(Draft("user", thing[0], value), m.start(), m.end(), "new X: Y"), thing[1]
    for m in _FAV_EQ.finditer(sentence):
        value = _value(m["y"], "favorite")
        if value:
            yield Found(Draft("user", FAVORITE_PREFIX + m["x"].lower(), value), m.start(), m.end(), "fav X = Y"), True
    for m in _Y_IS_MY_X.finditer(sentence):
        if (thing := _owned_thing(m["x"], registered)) is None:
            continue
        predicate, open_slot = thing
        raw = re.split(r"(?i)[,;]\s*|\b(?:and|but|so|now|yeah|yes|ok)\s+", m["y"])[-1]
        value = _value(raw, predicate)
        if value is None or is_first_person(value.split()[0]):
            continue
        yield Found(Draft("user", predicate, value), m.start(), m.end(), "Y is my X"), open_slot


# Nouns that say a person without saying who.
_SOMEONE = frozenset({"guy", "bloke", "chap", "fella", "fellow", "lady", "woman", "man", "girl", "person", "someone",
                      "somebody"})
# Said in lower case: "One Life" or "Man Fitness" is a name.
_SOMEONE_FIRST = re.compile(r"^(?:(?i:the|a|an|some|this|that)\s+)?(?:[a-z]+\s+)?(?:" + "|".join(sorted(_SOMEONE))
                            + r")\b")
_NAME_AFTER = re.compile(r"[^,;.!?]*,\s*(?P<n>" + NAME + r")\s*(?:[.!)]|$)")


def owner_of(owner: str, people: People, at: int) -> str | None:
    """Whose thing "my", "our", "his", "dad's", "Ana's" says it is: "user", a relative of the user, a
    person the message or the user's circle names, or None (a stranger)."""
    o = owner.lower().replace("’", "'")
    o = re.sub(r"^(?:my|our)\s+(?=\w+'s$)", "", o)  # "my mum's": the mother's
    if o in ("my", "our", "the") or o.removeprefix("the ") == "user's":
        return "user"  # "the user's": how an agent writes down what the user said
    if o in ("his", "her", "their"):
        return people.pronoun(at, o)
    name = without_s(re.sub(r"(?i)^(?:my|our)\s+", "", owner))
    if name.lower() in ROLES:
        return f"user's {ROLES[name.lower()]}"
    return name if people.known(name) else None


# Where the user can be reached, by the address's own shape: "reach me at +44 7700 900123", "text me
# on 0612 345 678", "email me at ana@example.org".
_CONTACT = _c(r"(?i:\b(?:reach|contact|call|ring|text|whatsapp|message|ping|email|mail|find|get)\s+(?:me|us)\s+"
              r"(?:at|on|via|through)\s+)(?P<v>" + PHONE_NUMBER.pattern + r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)")


def sentence_claims(sentence: str) -> Iterator[Found]:
    for m in _CONTACT.finditer(sentence):
        predicate = "email" if "@" in m["v"] else "phone_number"
        yield Found(Draft("user", predicate, m["v"]), m.start(), m.end(), "contact " + predicate)
    for predicate, patterns in SENTENCE_RULES:
        for pattern in patterns:
            for m in pattern.finditer(sentence):
                value = _clean(predicate, m["v"])
                if value:
                    yield Found(Draft("user", predicate, value), m.start(), m.end(), predicate)


def verb_claims(clause: str, subject: str, first_person: bool) -> Iterator[Found]:
    """The verb patterns over one clause whose subject is known."""
    for predicate, patterns in VERB_RULES:
        for pattern in patterns:
            for m in pattern.finditer(clause):
                value = m["v"] if "v" in m.groupdict() and m["v"] else m.groupdict().get("j")
                if not value:
                    continue
                value = _clean(predicate, value)
                if value is None:
                    continue
                yield Found(Draft(subject, predicate, value), m.start(), m.end(), predicate)
    for pattern in _WORKS_END:
        for m in pattern.finditer(clause):
            yield Found(Draft(subject, "works_at", clean_value(m["v"])), m.start(), m.end(), "works_at ended",
                        negated=True)
    if (started := _STARTED_AT.search(clause)) is not None:
        yield Found(Draft(subject, "works_at" if first_person else "studies_at", clean_value(started["v"])),
                    started.start(), started.end(), "started at")
    for pattern in _VALUE_ONLY:
        for m in pattern.finditer(clause):
            yield Found(Draft(subject, None, clean_value(m["v"])), m.start(), m.end(), "value only")
    for pattern in _VALUE_END:
        for m in pattern.finditer(clause):
            yield Found(Draft(subject, None, clean_value(m["v"])), m.start(), m.end(), "value ended", negated=True)


def _clean(predicate: str, value: str) -> str | None:
    value = clean_value(value)
    if not value:
        return None
    low = value.lower()
    if predicate in ("likes", "dislikes", "allergy"):
        first = low.split()[0]
        if first in ("it", "this", "that", "you", "him", "her", "them", "to", "when", "how", "my", "the", "doing",
                     "being", "getting", "going", "working", "living", "being", "eating"):
            return None
        if predicate == "allergy":
            value = re.sub(r"(?i)^(?:any|all|most)\s+", "", value)
    if predicate == "speaks":
        return None  # split by `languages`
    if predicate in ("name", "nickname") and (not is_name(value) or low in NATIONALITIES or low in LANGUAGES):
        return None  # "I'm Irish", "hi, I'm English": no name
    if predicate == "job_title":
        value = re.sub(r"(?i)^(?:only|the|a|an)\s+", "", value)
    if predicate in ("lives_in", "works_at", "hometown", "studies_at"):
        value = re.sub(r"(?i)\s+(?:now|originally|anymore)$", "", value)
        if value.split()[0] in ("The", "A") or low in ("home", "work", "the moment"):
            return None
    return value or None


def languages(clause: str) -> list[tuple[str, int, int]]:
    out = []
    for m in _SPEAKS[0].finditer(clause):
        for lang in re.finditer(_LANG, m["v"]):
            out.append((lang.group().capitalize(), m.start(), m.end()))
    return out


PET_HAD = "pet had"  # "has a cat called Tom": whose it is, the clause's subject says (graph/ingestion/extractor.py)


def pets(sentence: str) -> Iterator[Found]:
    for i, pattern in enumerate(_PET):
        for m in pattern.finditer(sentence):
            named = m["v"] or m.groupdict().get("v2")  # "a second dog, Pip"
            named = without_s(named) if named else named  # "Marmite's our cat": the "'s" is "is"
            value = named if named and is_name(named) else m["a"]
            yield Found(Draft("user", "pet", clean_value(value)), m.start(), m.end(), PET_HAD if i == 0 else "pet")


def devices(sentence: str) -> Iterator[Found]:
    for pattern in _DEVICE:
        for m in pattern.finditer(sentence):
            if re.search(r"(?i)\b(?:don't|do\s+not|don’t|no\s+longer|never|not)\s*$", sentence[max(0, m.start() - 12):
                                                                                           m.start()]):
                continue
            value = clean_value(m["v"])
            predicate = "phone" if value.lower().startswith(PHONE_BRANDS) else "device"
            yield Found(Draft("user", predicate, value), m.start(), m.end(), "device")


def ended_devices(sentence: str) -> Iterator[Found]:
    for pattern in _DEVICE_END:
        for m in pattern.finditer(sentence):
            yield Found(Draft("user", "device", clean_value(m["v"])), m.start(), m.end(), "device ended", negated=True)


def job_fragments(sentence: str) -> Iterator[Found]:
    """A job title said on its own beside an employer: "started at Monzo!! backend engineer"."""
    for m in re.finditer(r"(?:^|[,!.;]\s*|🎉\s*)(?P<j>(?:[\w-]+\s+){0,2}?(?i:" + "|".join(JOB_HEADS) + r"))"
                         r"(?=\s*(?:[,.!;]|$)|\s+(?:as\s+you\s+know)\b)", sentence):
        yield Found(Draft("user", "job_title", clean_value(m["j"])), m.start("j"), m.end("j"), "job title alone")


def diet_fragments(sentence: str) -> Iterator[Found]:
    """ "still vegetarian, still hate cilantro": a diet said with no subject."""
    for m in re.finditer(r"(?i)(?:^|[,;]\s*)(?:still|now|also)\s+(?P<v>" + "|".join(DIETS) + r")\b", sentence):
        yield Found(Draft("user", "diet", m["v"]), m.start("v"), m.end("v"), "diet alone")


_SPELLED = _c(r"(?i:spelled|spelt|spelling\s+is|spelled\s+as)\s+(?P<v>[\w’'.+-]+(?:\s+[A-Z][\w’'.+-]*){0,2})")


def spelled(sentence: str) -> Iterator[Found]:
    """ "it's spelled Michael": a value without its thing (the decision finds the slot it corrects)."""
    for m in _SPELLED.finditer(sentence):
        value = clean_value(m["v"])
        if value and value.lower() not in NOT_VALUES:
            yield Found(Draft("user", None, value), m.start("v"), m.end("v"), "spelled")


def correction_pair(sentence: str) -> tuple[str, str] | None:
    """ "X, not Y" / "Y not X" in a correction: (said now, said to be wrong)."""
    m = re.search(r"(?P<new>(?:(?:Dr|Mr|Mrs|Ms)\.\s+)?[A-Z][\w’'+-]*(?:\s+[A-Z][\w’'+-]*){0,2}|\d+|[a-z][\w’'+-]*)"
                  r"(?:\s+(?i:with|spelled\s+with|spelt\s+with)\s+(?:a|an|two|double|one|no)\s+[\w’']+)?"  # "with a z"
                  r",?\s+(?i:not)\s+(?i:the\s+)?(?P<old>[\w’'.+-]+(?:\s+"
                  r"[\w’'.+-]+){0,2}?)(?=\s*(?:[,.;!?]|$)|\s+(?:you|as|like|lol|whoops|my)\b)", sentence)
    if m is None:
        return None
    new = re.sub(r"^(?i:it|that)(?:['’]s|\s+is)\s+", "", m["new"])  # "It's Sam, not Sim": Sam
    return clean_value(new), clean_value(m["old"])
