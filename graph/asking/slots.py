"""The slots of a question, found by pattern: the time window, the excluded things, the proper names,
the predicate whose past value is asked. Each returns spans of the prepared question
(graph/asking/question.py), so a name inside a window or an exclusion is not taken for the entity
asked about. Pure."""
from __future__ import annotations

import re

from graph.asking.markers import PEOPLE, PREDICATE_WORDS
from graph.asking.question import Question

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SEASONS = ("summer", "winter", "spring", "autumn", "fall")
HOLIDAYS = ("christmas", "xmas", "easter", "new year", "new year's", "new years", "thanksgiving", "halloween",
            "hanukkah", "diwali", "ramadan", "eid", "the holidays")
_MONTH = "|".join(MONTHS)
_DAY = "|".join(WEEKDAYS)
_UNIT = r"(?:days?|weeks?|weekends?|months?|years?|summers?|winters?|decades?)"
_COUNT = r"(?:few|couple(?: of)?|\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
_PERIOD = r"(?:week|weekend|month|year|summer|winter|spring|autumn|fall|night|quarter|semester|term)"
# A clause after "before"/"since" that tells a story or a plan, not a period ("before I forget",
# "before the session starts", "before she arrives").
_NOT_A_POINT = re.compile(r"\b(?:forget|forgets|start|starts|begin|begins|arrive|arrives|go|goes|leave|leaves|"
                          r"end|ends|come|comes|get|gets|see|sees|answer|reply|ask|asks|do|does|tell)\b")

_WINDOWS = tuple(re.compile(p) for p in (
    r"\b(?:around |about |at )?(?:this|the same) time last (?:year|month|week)\b",
    r"\b(?:over |in |during |for |within )?the (?:past|last) (?:" + _COUNT + r" )?" + _UNIT + r"\b",
    r"\b(?:over |in |during |for )?(?:the )?(?:past|last) " + _COUNT + r" " + _UNIT + r"\b",
    r"\b(?:" + _COUNT + r") " + _UNIT + r" ago\b",
    r"\b(?:for |in |during |over )?(?:last|this|past) " + _PERIOD + r"\b",
    r"\b(?:over|in|during|for) the (?:" + _PERIOD + r")\b",
    (r"\b(?:yesterday|the day before yesterday|today|this morning|this afternoon|this evening|last night|lately|"
     r"recently|these days|nowadays|of late|over the years|all these years|in recent (?:weeks|months|days))\b"),
    r"\b(?:back )?in (?:(?:early|late|mid) )?(?:" + _MONTH + r")(?: \d{4})?\b",
    r"\b(?:back )?in (?:the )?(?:(?:early|late|mid) )?(?:\d{4}s?|'\d\d|the (?:\d0s|nineties|eighties))\b",
    r"\b(?:back )?in (?:college|school|high school|university|uni|grad school)\b",
    r"\bwhen i was (?:a kid|little|young|younger|at (?:uni|school|college)|in (?:college|school|my \w+))\b",
    r"\bgrowing up\b",
    r"\b(?:on|last|this|next) (?:" + _DAY + r")\b",
    r"\b(?:over|during|at|on|around|for) (?:the )?(?:" + "|".join(HOLIDAYS) + r")\b",
    r"\bsince (?:(?:dr|mr|mrs|ms|prof|st)\. |[^,.?!;])+?(?=[,.?!;]|$| and | or | other than| except| but)",
    r"\b(?:before|after) (?:(?:dr|mr|mrs|ms|prof|st)\. |[^,.?!;])+?(?=[,.?!;]|$| and | or | other than| except| but)",
    r"\bwhile (?:i|we) (?:was|were) [^,.?!;]+?(?=[,.?!;]|$)",
    r"\bat (?:\w+'s )?(?:birthday|party|wedding|funeral|conference|dinner|barbecue|bbq|reunion)(?: party)?\b",
))


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in spans)


def window(q: Question, avoid: list[tuple[int, int]]) -> tuple[str, tuple[int, int]] | None:
    """The first time phrase (the longest at a place), as written, and its span."""
    found: list[tuple[int, int]] = []
    for pattern in _WINDOWS:
        for m in pattern.finditer(q.masked):
            span = m.span()
            phrase = q.lower[span[0]:span[1]]
            if _overlaps(span, avoid):
                continue
            if phrase.startswith(("before ", "after ", "since ")):
                rest = phrase.split(" ", 1)[1]
                if _NOT_A_POINT.search(rest) and not re.search(r"\b(?:i|we|the user) \w+ed\b", rest):
                    continue
            found.append(span)
    if not found:
        return None
    start = min(s for s, _ in found)
    end = max(e for s, e in found if s == start)
    return q.text[start:end], (start, end)


# -- exclusions ----------------------------------------------------------------------------------------------
_EXCLUDERS = tuple(re.compile(p) for p in (
    r"\b(?:but|and) not (?:counting |including |incl\.? )?",
    r"(?:,|^) ?not (?:counting|including) ",
    r"\bexcept(?: for)? ",
    r"\bexcluding ",
    r"\bother than ",
    r"\b(?:apart|aside) from ",
    r"\bbesides (?!that\b|this\b|,)",
    r"\bleav(?:e|ing) out (?:anything (?:to do with|about|involving) |everything (?:to do with|about) )?",
    r"\bwithout (?:any )?",
    (r"\b(?:that|which|who) (?:don't|doesn't|didn't|do not|does not|did not|won't|aren't|isn't|wasn't|weren't|"
     r"are not|is not|was not|were not|dont|doesnt|didnt|wasnt|werent|isnt|arent) (?:use |have |include |involve |"
     r"contain |mention |involving |about |related to |to do with |count as )?"),
    r"\b(?:but|and) no ",
    r"[,;] no (?!idea\b|clue\b|worries\b|rush\b|problem\b|thanks\b|way\b|need\b|matter\b|one\b|longer\b)",
    r"\banything but ",
    r"\bnothing (?:like|about|with|involving|(?:that|which) (?:involves?|has|includes?|mentions?) )",
    r"\bminus ",
    r"\bskip(?:ping)? (?:the |anything about |anything to do with )?(?=\w)",
    r"\bignor(?:e|ing) (?:the |anything about |anything to do with )?(?=\w)",
))
_EXCLUDED_END = re.compile(r"[,.?!;]|\b(?:in (?:them|it)|please|pls|im|i'm|i am|she|he|they|since|lately|these days|"
                           r"last \w+|this \w+|and (?:what|how|who|where|is|are|do|did)|because|cause|cuz|though)\b")
_ARTICLE = re.compile(r"^(?:the|a|an|any|anything|stuff about|things about) ")


def exclusions(q: Question) -> list[tuple[str, tuple[int, int]]]:
    """Each excluded thing as written, without a leading article, with the span of the whole
    exclusion phrase (marker included)."""
    out: list[tuple[str, tuple[int, int]]] = []
    marks = sorted((m for p in _EXCLUDERS for m in p.finditer(q.masked)), key=lambda m: m.start())
    for m in marks:
        if any(m.start() < e and s < m.end() for _, (s, e) in out):
            continue
        rest = q.masked[m.end():]
        stop = _EXCLUDED_END.search(rest)
        end = m.end() + (stop.start() if stop else len(rest))
        phrase = q.text[m.end():end].strip()
        span = (m.start(), m.end() + len(q.text[m.end():end].rstrip()))
        for part in re.split(r",? (?:or|and|nor)\b |, ", phrase):
            part = _ARTICLE.sub("", part.strip(), count=1).strip()
            part = _ARTICLE.sub("", part, count=1).strip()
            if part and part.lower() not in ("me", "it", "them", "that", "this"):
                out.append((part, span))
    # One thing named twice ("nothing like the candles I gave her", "anything but candles"): keep the shortest.
    best: dict[str, tuple[str, tuple[int, int]]] = {}
    for part, span in out:
        key = part.lower().split(" ")[0]
        if key not in best or len(part) < len(best[key][0]):
            best[key] = (part, span)
    return list(best.values())


# -- names ---------------------------------------------------------------------------------------------------
# Capitalised only because they open a sentence (or are a question word): no names there.
_STARTERS = {w.lower() for w in (
    "What", "Whats", "What's", "Who", "Whos", "Who's", "How", "Hows", "How's", "Why", "When", "Where", "Wheres",
    "Where's", "Which", "Tell", "Could", "Can", "Would", "Will", "Please", "Did", "Do", "Does", "Is", "Was", "Were",
    "Are", "Am", "Find", "Show", "Remind", "Walk", "Be", "Before", "After", "Has", "Have", "Had", "Ok", "Okay", "So",
    "Song", "Search", "The", "A", "An", "My", "Our", "Any", "Anything", "Everything", "Give", "List", "Let", "Hey",
    "Hi", "Also", "And", "But", "Or", "Not", "No", "Yes", "Summary", "Summarize", "Summarise", "Info", "Sentiment",
    "Since", "In", "On", "At", "Of", "For", "From", "To", "Check", "Look", "Pull", "Get", "Go", "Goals", "Progress",
    "Restaurants", "Places", "Recipes", "Ideas", "Honestly", "Just", "Quick", "Quickly", "Don't", "Dont", "Need",
    "Want", "It", "That", "This", "These", "Those", "You", "Your", "We", "They", "He", "She", "His", "Her", "Their",
    "Should", "Shall", "May", "Might", "Must", "Any", "Some", "Remember", "Recall", "Note", "Notes", "Help",
)}
# Never a name asked about: the first person, the user, months, weekdays, holidays, peoples and languages.
NEVER_NAMES = {w.lower() for w in (
    "I", "I'm", "I've", "I'd", "I'll", "Im", "Ive", "User", "Christmas", "Xmas", "Easter", "Thanksgiving",
    "Halloween", "Hanukkah", "Diwali", "Ramadan", "Eid", "New Year", "New Year's", "New Years",
    "Italian", "Thai", "Chinese", "Japanese", "Indian", "Mexican", "French", "Spanish", "German", "Greek",
    "Korean", "Vietnamese", "Turkish", "Portuguese", "English", "British", "American", "Irish", "Scottish", "Welsh",
    "Dutch", "Swedish", "Polish", "Russian", "Arabic", "Lebanese", "Ethiopian", "Brazilian", "Peruvian", "Cuban",
    "European", "Asian", "African", "Latin", "Mediterranean", "Nordic", "Scandinavian", "Western", "Eastern",
)} | set(MONTHS) | set(WEEKDAYS)
_TITLE = r"(?:Dr|Mr|Mrs|Ms|Prof|St)\.? "
_NAME = re.compile(r"(?:" + _TITLE + r")?[A-Z][\w&]*(?:'[a-rt-z]\w*)?(?:(?: (?:of|de|da|van|von|del|la|le))?"
                   r" [A-Z][\w&]*(?:'[a-rt-z]\w*)?)*(?:'s)?")
_SENTENCE_START = re.compile(r"(?:^|[.?!:]\s+|[\"'(]\s*)$")


def names(q: Question, avoid: list[tuple[int, int]]) -> list[tuple[str, tuple[int, int]]]:
    """Proper names and titles, as written, in order: capitalised words (a sentence's first word only
    when it is no common word), quoted or named titles; none inside `avoid` (window, exclusions)."""
    found: list[tuple[str, tuple[int, int]]] = []
    for start, end in q.titles:
        if not _overlaps((start, end), avoid):
            found.append((q.text[start:end], (start, end)))
    for m in _NAME.finditer(q.text):
        start = m.start()
        words = m.group().split(" ")
        # A sentence's first word, or a question word anywhere, is no name ("Tell", "What", "Was it Will").
        while words and (words[0].lower() in _STARTERS and (_SENTENCE_START.search(q.text[:start])
                                                            or words[0].lower() not in ("will", "may", "bill"))):
            if re.match(_TITLE, words[0] + " "):
                break
            start += len(words[0]) + 1
            words = words[1:]
        name = " ".join(words)
        if name.endswith("'s"):
            name = name[:-2]
        span = (start, start + len(name))
        if not name or name.lower() in NEVER_NAMES or _overlaps(span, avoid) or _overlaps(span, list(q.titles)):
            continue
        found.append((name, span))
    found.sort(key=lambda f: f[1][0])
    out: list[tuple[str, tuple[int, int]]] = []
    for name, span in found:
        if name.lower() not in [n.lower() for n, _ in out]:
            out.append((name, span))
    return out


# -- the slot asked about in the past ------------------------------------------------------------------------
_PREDICATE_PATTERNS = tuple(
    # "the name of that place", "the address of the venue": another thing's, not the user's slot.
    (predicate, re.compile(r"\b(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) +
                           r")\b(?! (?:of|for)\b)"))
    for predicate, words in PREDICATE_WORDS.items())
# Which slot wins when several words appear ("where did I work" is works_at; "my job title" job_title).
_PREDICATE_ORDER = ("job_title", "favourite_food", "address", "email", "phone", "lives_in", "works_at", "car",
                    "partner", "diet", "hobby", "pet", "manager", "gym", "doctor", "hair", "team", "bank", "school",
                    "name")


def predicate(q: Question, avoid: list[tuple[int, int]]) -> str | None:
    hits: dict[str, int] = {}
    for name, pattern in _PREDICATE_PATTERNS:
        for m in pattern.finditer(q.masked):
            if not _overlaps(m.span(), avoid):
                hits.setdefault(name, m.start())
    if not hits:
        return None
    return min(hits, key=lambda p: (_PREDICATE_ORDER.index(p), hits[p]))


# Whose slot a past tense is on. A person the user names or relates to, as the subject of the past verb
# or the slot's possessor ("which dentist did my coworker Ahmed switch to", "where did my brother live
# before", "what was my sister's job", "which gym was Priya going to"), owns it: what they did then is
# no past value of the user's. The user as a subject ("where did I work before my sister moved in")
# keeps it the user's.
# "what was my ex's name": who filled one of the user's slots, not a slot of theirs.
_NOT_WHO = r"(?! (?:name|surname|last name)\b)"
_RELATED = r"(?:my|our|his|her|their|the user'?s) (?:" + PEOPLE + r")(?: [\w']+)?"
_ANOTHER_OWNER = re.compile(
    r"\b(?:did|had|has|have|does) " + _RELATED + r"\b(?!')"
    r"|\b(?:was|were) (?:my|our|his|her|their|the user'?s) (?:" + PEOPLE + r")(?: [\w']+)? \w+ing\b"
    r"|\b(?:my|our|his|her|their|the user'?s) (?:" + PEOPLE + r")(?: [\w']+)?'s\b" + _NOT_WHO)
_NAMED_OWNER = re.compile(r"\b(?:did|had|has|have|does|was|were) (?!I\b)[A-Z][\w]+\b(?!')"
                          r"|\b(?!(?:What|Who|Where|When|How|It|That|There|Here|Whats|Let)'s)[A-Z][\w]*'s\b" + _NOT_WHO)
_USER_SUBJECT = re.compile(r"\b(?:did|had|has|have|do|does|was|were|am) (?:i|we|the user)\b|^(?:i|we) ")


def owned_by_another(q: Question) -> bool:
    """The slot a past tense is on is a named or related person's, not the user's (above)."""
    if _USER_SUBJECT.search(q.masked):
        return False
    return bool(_ANOTHER_OWNER.search(q.masked) or _NAMED_OWNER.search(q.text))
