"""What a sentence's wording says about how to treat it: a question, a hypothetical, a joke, small
talk or an uncertain negation states nothing; update wording, a correction or "also" tell how what
it states relates to what is known; a request to forget, or news that something ended. Pure."""
from __future__ import annotations

import re

from graph.ingestion.model import CUE_APPEND, CUE_CORRECTION, CUE_UPDATE
from graph.ingestion.vocabulary import ANIMALS, BARE_KIN, PRODUCT_WORDS, ROLES

_QUESTION_START = re.compile(r"(?i)^(?:quick\s+q:?\s*)?(?:what|where|when|who|whom|whose|why|how|which|is|are|am|do|"
                             r"does|did|can|could|would|should|will|shall|have|has|any|anyone|remind\s+me\s+what)\b")
SUPPOSING = frozenset({"suppose", "imagine", "picture", "pretend"})  # "Imagine if I lived in Tokyo"
_HYPOTHETICAL = re.compile(r"(?i)^(?:if|suppose|supposing|imagine|picture\s+(?:me|us)|pretend|what\s+if|"
                           r"in\s+another\s+life|in\s+a\s+parallel)\b|"
                           r"\b(?:i\s+wish|i'd\s+have\s+been|i\s+would\s+have|if\s+only|i'd\s+love\s+to|"
                           r"would\s+be\s+nice|someday|one\s+day\s+i)\b")
_HYPOTHETICAL_CLAUSE = re.compile(r"(?i)^(?:if|suppose|unless)\b[^,]*,\s*(?:[^,]*?\b(?:would|'d|might|could)\b[^,]*)?")
_SMALL_TALK = re.compile(r"(?i)^\W*(?:hi|hey|hello|thanks|thank\s+you|cheers|ok|okay|got\s+it|cool|nice|great|"
                         r"haha+|lol|lmao|yes|no|yeah|yep|nope|sure|sounds\s+good|good\s+night|bye|noted)"
                         r"(?:[\s,!.]+(?:ok|okay|cheers|thanks|lol|haha|then|mate|so\s+much))*\W*$")
_UNCERTAIN = re.compile(r"(?i)^(?:not\s+sure|no\s+idea|i\s+don't\s+know|i\s+do\s+not\s+know|dunno|i\s+can't\s+remember|"
                        r"i\s+cannot\s+remember|can't\s+remember|i\s+forget|i\s+forgot|nah|maybe|i\s+might|"
                        r"i'm\s+not\s+sure|don't\s+think|i\s+don't\s+think|wondering|i\s+wonder)\b")
_JOKE = re.compile(r"(?i)\bspirit\s+animal\b|\bforever\b|\bmy\s+real\s+\w+\s+is\b|\bis\s+my\s+(?:cat|dog)\s+(?:lol|"
                   r"haha)|\bwould\s+kill\s+me\b|\bin\s+my\s+dreams\b")
# A joke taken back: what was said before it was no fact ("I'm a nurse, just kidding, I'm an accountant").
TAKEN_BACK = re.compile(r"(?i)\b(?:just\s+kidding|only\s+kidding|just\s+joking|only\s+joking|jk|j/k|kidding|joking)\b"
                        r"(?!\s+(?:aside|apart))")
_OTHER_TELLS = re.compile(r"(?i)\b(?:told\s+me|said\s+that|says\s+that|apparently|i\s+heard|rumou?r|on\s+the\s+news|"
                          r"in\s+the\s+film|in\s+the\s+book|in\s+the\s+show)\b")

UPDATE_WORDS = re.compile(r"(?i)\b(?:now|these\s+days|nowadays|finally|switched|switching|moved|moving|relocated|"
                          r"relocating|no\s+longer|from\s+now\s+on|anymore|any\s+more|instead|new|just\s+started|"
                          r"joined|joining|changed|starting|started|got\s+a\s+new|since|went\s+with|then|postponed|"
                          r"rescheduled|pushed\s+back|brought\s+forward|delayed|bumped)\b")
CORRECTION_WORDS = re.compile(r"(?i)\b(?:actually|i\s+meant|meant|sorry|oops|whoops|my\s+bad|you\s+had|misheard|"
                              r"mistyped|typo|not\s+\S+\s+after\s+all|after\s+all|correction|no\s+wait|wait,|i\s+said\s+"
                              r"\S+\s+but|is\s+spelled|spelt|spelled|it's\s+spelled|you\s+got\s+\S+\s+wrong|wrong)\b|"
                              r"\bnot\s+[\w.]+(?:\s+[\w.]+)?\s*(?:[,.]|$)")
APPEND_WORDS = re.compile(r"(?i)\b(?:also|too|as\s+well|another|and\s+also|plus|add|added|in\s+addition|extra|"
                          r"forgot\s+that\s+step|one\s+more)\b")

# "forget that", "don't remember this", "delete what I told you about X", "scratch that".
FORGET = re.compile(
    r"(?i)\b(?:please\s+)?(?:forget|delete|remove|erase|wipe|scratch|scrap|disregard|drop|purge)\s+(?P<what>.*)$"
    r"|\b(?:don't|do\s+not|dont|don’t|never)\s+(?:remember|store|save|keep|record|write\s+down|note\s+down|"
    r"log)\s+(?P<what2>.*)$"
    r"|\b(?:that's|that\s+is|this\s+is|it's)\s+(?:private|off\s+the\s+record|between\s+us),?\s+(?:so\s+)?"
    r"(?:don't|do\s+not)\s+(?:store|save|keep|remember)\s+(?P<what3>.*)$")
_SELF = re.compile(r"(?i)^(?:this|that|it|the\s+last\s+(?:thing|bit|part|message)|that\s+last\s+(?:thing|bit|part|"
                   r"message)|what\s+i\s+just\s+said|the\s+above)\b")
SAME_MESSAGE = re.compile(r"(?i)^(?:this|it)\s*:|^(?:this|it)\s*$|^(?:this|it)\s+(?:please|pls)?\W*$")
PRIVATE = re.compile(r"(?i)\b(?:keep\s+(?:this|that|it)\s+(?:private|between\s+us|to\s+yourself|secret|quiet)|"
                     r"between\s+(?:us|you\s+and\s+me)|don't\s+tell\s+anyone|do\s+not\s+tell\s+anyone|"
                     r"off\s+the\s+record|that's\s+private|this\s+is\s+private|(?:keep|is)\s+(?:it\s+)?confidential|"
                     r"just\s+between\s+us)\b")

# Something the user had has ended: "I sold my car", "no landlord anymore", "the meeting got cancelled".
ENDED = re.compile(r"(?i)\b(?:sold|got\s+rid\s+of|gave\s+away|gave\s+up|given\s+up|stopped|quit|lost|cancelled|"
                   r"canceled|called\s+off|is\s+over|"
                   r"are\s+over|was\s+over|ended|finished|no\s+longer\s+(?:have|own|see|use)|don't\s+have|do\s+not\s+have|"
                   r"don’t\s+have|left\s+the\s+company|left|retired|moved\s+out|not\s+\w+\s+after\s+all)\b|"
                   r"\bno\s+(?:more\s+)?(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?:anymore|any\s+more|for\s+me|now|"
                   r"right\s+now)\b|"
                   r"\bnot\s+at\s+\S+(?:\s+\S+)?\s+anymore\b")
# The user's job ended, whoever ended it: "I've been made redundant", "got laid off", "they let me go".
JOB_LOST = re.compile(r"(?i)\b(?:made\s+redundant|laid\s+off|let\s+(?:me|us)\s+go|(?:got|been|was|were|get|getting)\s+"
                      r"(?:fired|sacked|the\s+sack|the\s+boot)|lost\s+my\s+job)\b")
RELATIONSHIP_END = re.compile(r"(?i)\b(?:broke\s+up|split\s+up|separated|divorced|divorcing|breaking\s+up|"
                              r"called\s+it\s+off|ended\s+things|we're\s+over|are\s+over)\b")
ENGAGED = re.compile(r"(?i)\b(?:got\s+engaged|are\s+engaged|we're\s+engaged|proposed)\b")
MARRIED = re.compile(r"(?i)\b(?:got\s+married|are\s+married|we're\s+married|tied\s+the\s+knot|married)\b")
# A death or a loss is someone's: what stops working ("the printer died", "the Galaxy died"), what is
# passed ("passed my test", "passed the old mill"), what is mislaid ("lost my keys") and the user's own
# hyperbole ("I nearly died laughing") are none. Where the one who died cannot be told, it counts.
_LOSS_WORDS = re.compile(r"(?i)\b(?:funeral|death|miscarr\w*|stillbirth|stillborn)\b")
_DIED = re.compile(r"(?i)\b(?:died|dies|dying|passed\s+away|passed\s+on|passed|put\s+down|put\s+to\s+sleep)\b"
                   r"(?P<after>\s+\S+)?")
_LOST = re.compile(r"(?i)\b(?:lost|losing)\s+(?:my|our|his|her|their)\s+(?P<whom>(?:[\w'’-]+\s+){0,2}?[\w'’-]+)"
                   r"(?=[\s,.;:!?]|$)")
# "We lost Grandad on Thursday": a kin word said bare as a name (not "lost Mum's ring").
_LOST_KIN = re.compile(r"(?i)\b(?:lost|losing)\s+(?P<whom>" + "|".join(BARE_KIN) + r")\b(?!['’]s)")
# Between the one who died and the verb: adverbs and auxiliaries ("has sadly passed", "was put down").
_BETWEEN = frozenset("""has have had just sadly finally suddenly recently unexpectedly peacefully quietly nearly almost
tragically only also then was were got been be is 's ’s""".split())
# What "passed" takes when it is not a death ("passed my test", "passed by", "passed out").
_PASSED_OBJECT = re.compile(r"(?i)\s+(?:my|our|his|her|their|the|a|an|it|this|that|these|those|me|him|them|us|"
                            r"by|through|out|over|up|around|round|along|down|\d\S*)$")
_THE_USER = frozenset("i me".split())
# What people say "died" of that never lived: devices, vehicles, appliances, connections.
_STOPS_WORKING = PRODUCT_WORDS | frozenset("""phone mobile battery
batteries printer car van bike engine computer tv telly fridge freezer boiler router wifi wi-fi internet broadband
charger screen drive disk server hoover vacuum kettle toaster microwave dishwasher washer dryer oven heater radiator
lights bulb signal power app account game console speaker mouse keyboard monitor camera plant plants houseplant
conversation chat party vibe mood idea project trend hype joke band startup business""".split())
_BEINGS = frozenset(ROLES) | frozenset(BARE_KIN) | ANIMALS | frozenset("""baby babies twins parents
grandparents kids children family friends pet dad's mum's mother's father's""".split())


def loss_of_life(text: str) -> bool:
    """Whether `text` tells of someone's death or loss."""
    return bool(_LOSS_WORDS.search(text)) or bool(the_dead(text))


def the_dead(text: str, *, dying: bool = True) -> list[tuple[str, int]]:
    """(word, where it starts) of each one `text` tells died or was lost: the word before a death verb
    ("" where none stands there: who died cannot be told), or the being after "lost my"; `dying`
    False leaves out who is dying yet ("our cat is dying")."""
    dead: list[tuple[str, int]] = []
    for m in _LOST.finditer(text):
        whom = m["whom"].split()
        if whom[-1].lower().strip("'’") in _BEINGS or whom[0].lower() in _BEINGS:
            dead.append((whom[0].lower(), m.start("whom")))
    dead += [(m["whom"].lower(), m.start("whom")) for m in _LOST_KIN.finditer(text)]
    for m in _DIED.finditer(text):
        verb = " ".join(m.group(0)[:len(m.group(0)) - len(m["after"] or "")].lower().split())
        if verb in ("passed", "passed on") and m["after"] and _PASSED_OBJECT.match(m["after"]):
            continue  # passed an exam, a place, or out; passed on a message
        if verb == "dying" and not dying:
            continue
        if verb == "dying" and m["after"] and m["after"].strip().lower() in ("to", "for", "of"):
            continue  # "dying to see it"
        before = [(w.group().strip(",.;:!?\"()").lower(), w.start()) for w in re.finditer(r"\S+", text[:m.start()])]
        before = [(w, at) for w, at in before if w]
        while before and before[-1][0] in _BETWEEN:
            before.pop()
        who, at = before[-1] if before else ("", m.start())
        if who in _THE_USER or who in _STOPS_WORKING:
            continue
        dead.append((who, at))
    return dead


# A tag that asks the listener to agree or recall, after a statement ("my birthday's 2 April, remember?",
# "we're in Leeds now, right?"): the statement stands; the tag asks nothing new.
_TAG = re.compile(r"(?i)[,;]?\s*(?:remember|right|yeah|yes|ok|okay|you\s+know|as\s+i\s+said|if\s+you\s+recall|"
                  r"don't\s+you\s+remember|didn't\s+i\s+(?:say|tell\s+you|mention))\s*\?+\s*$")


def is_question(sentence: str) -> bool:
    s = sentence.strip()
    tag = _TAG.search(s)
    if tag is not None and tag.start() > 0:
        s = s[:tag.start()].strip()
        return bool(_QUESTION_START.match(s))
    return s.endswith("?") or bool(_QUESTION_START.match(s) and not s.endswith((".", "!")))


def is_hypothetical(sentence: str) -> bool:
    return bool(_HYPOTHETICAL.search(sentence))


def strip_hypothetical(sentence: str) -> tuple[str, int]:
    """ "If the Berlin job comes through we'd move, but for now we're in Cologne": what follows the
    hypothetical clause, and where it starts."""
    m = re.search(r"(?i),?\s*\bbut\s+", sentence)
    if re.match(r"(?i)^(?:if|suppose|unless)\b", sentence) and m:
        return sentence[m.end():], m.end()
    return sentence, 0


def is_small_talk(sentence: str) -> bool:
    return bool(_SMALL_TALK.match(sentence))


def is_uncertain(sentence: str) -> bool:
    return bool(_UNCERTAIN.match(sentence.strip()))


def is_joke(sentence: str) -> bool:
    return bool(_JOKE.search(sentence))


def hearsay(sentence: str) -> bool:
    return bool(_OTHER_TELLS.search(sentence))


def cue_of(sentence: str) -> str | None:
    if CORRECTION_WORDS.search(sentence):
        return CUE_CORRECTION
    if APPEND_WORDS.search(sentence):
        return CUE_APPEND
    if UPDATE_WORDS.search(sentence):
        return CUE_UPDATE
    return None


def forget_request(sentence: str) -> tuple[str, bool] | None:
    """(what to forget, whether it means the message itself or the last thing said) for a request
    to forget; None when the sentence asks nothing of the kind."""
    m = FORGET.search(sentence)
    if m is None:
        return None
    what = (m["what"] or m["what2"] or m["what3"] or "").strip()
    if m["what"] is not None and re.match(r"(?i)^(?:me|you|him|her|us|them|my\s+password|the\s+password)\b", what):
        return None
    if m["what"] is not None and not re.search(
            r"(?i)\b(?:forget|delete|remove|erase|wipe|scratch|scrap|disregard|purge)\b", m.group()):
        return None
    return what, bool(_SELF.match(what) or not what or re.match(r"(?i)^(?:please|pls|thanks)\W*$", what))
