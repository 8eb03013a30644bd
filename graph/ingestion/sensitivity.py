"""How sensitive what a sentence says is: health, finances, death or loss (cues.loss_of_life), grief, religion,
sexuality and politics are sensitive; what the user asks to keep private is private (it wins).
Pure: word lists, no model."""
from __future__ import annotations

import re

from graph.ingestion.cues import PRIVATE, loss_of_life
from graph.ingestion.vocabulary import JOB_HEADS

_SENSITIVE = re.compile(
    r"(?i)\b(?:allerg\w*|anaphyla\w*|diagnos\w*|diabet\w*|cancer|tumou?r|chemo\w*|asthma|epilep\w*|adhd|autis\w*|"
    r"depress\w*|anxiety|panic\s+attacks?|bipolar|ocd|ptsd|therap\w*|psychiatr\w*|psycholog\w*|counsell?(?:ing|or)|"
    r"medication|meds|prescri\w*|\d+\s*mg\b|sertraline|prozac|fluoxetine|citalopram|lexapro|zoloft|insulin|"
    r"metformin|ozempic|antidepress\w*|surgery|operation\s+on|hospital\w*|rehab|addict\w*|sober|sobriety|alcoholi\w*|"
    r"pregnan\w*|ivf|miscarr\w*|fertility|trying\s+for\s+a\s+baby|doctor's\s+orders|gp\s+said|blood\s+pressure|"
    r"cholesterol|migraine|chronic|illness|disease|disorder|injur\w*|physio\w*|"
    r"salary|salaries|paid\s+\d|make\s+(?:about\s+|around\s+)?[£$€]?\d+k?|earn\w*|debt\w*|loan|mortgage|overdraft|"
    r"bankrupt\w*|broke\b(?!\s+down)|savings|saving\s+for|bank\s+balance|credit\s+score|credit\s+card\s+debt|in\s+the\s+red|"
    r"money\s+(?:trouble|problems|worries)|\d+k\s+(?:a|per)\s+year|before\s+tax|"
    r"grie\w*|bereave\w*|mourning|lost\s+(?:my|our|his|her|their)\s+jobs?|"
    r"broke\s+up|split\s+up|divorc\w*|separated|"
    r"religio\w*|church|mosque|synagogue|temple|pray\w*|muslim|christian|jewish|hindu|buddhist|atheist|"
    r"gay|lesbian|bisexual|queer|trans\b|transgender|coming\s+out|came\s+out|sexuality|"
    r"voted|vote\s+for|labour|tory|tories|conservative\s+party|democrat\w*|republican\w*|green\s+party|"
    r"party\s+member|canvass\w*|politic\w*|"
    # Broader words for the same categories, so a phrasing no list anticipated still counts.
    r"mental\s+health|dementia|alzheimer\w*|parkinson\w*|(?:had|suffered)\s+a\s+stroke(?!\s+of)|heart\s+attack|hospice|palliative|terminal|"
    r"antibiotics?|infection|herniated|fractured?|symptoms?|relapse\w*|biopsy|mri|scan\s+results|eating\s+disorder|"
    r"self[-\s]harm\w*|suicid\w*|burn(?:ed|t)[-\s]?out|insomnia|c[o]?eliac|crohn\w*|arthritis|thyroid|hiv|"
    r"bills|(?:can't|cannot|can’t)\s+afford|owe[sd]?|laid\s+off|redundan\w*|unemploy\w*|"
    r"money(?:'s|\s+is|\s+has\s+been)\s+(?:really\s+|so\s+|very\s+)?tight|skint|overdrawn|behind\s+on|arrears|"
    r"evict\w*|food\s+bank|payday\s+loan|widow\w*|"
    r"catholic|protestant|mormon|sikh|orthodox|ramadan|faith|bible|quran|torah|"
    r"(?:i'm|i\s+am|im)\s+bi(?!-)|pansexual|asexual|non-?binary)\b")


# Working somewhere is no health: "a nurse at St Thomas' hospital", "works at the Elm Tree surgery".
# The workplace goes, the job word stays: "my therapist at the Priory clinic" is still therapy.
_WORKPLACE = re.compile(r"(?i)\b(?P<job>(?:work(?:s|ed|ing)?|job|" + "|".join(sorted(JOB_HEADS, key=len, reverse=True))
                        + r")s?)\s+(?:at|in|for)\s+(?:the\s+)?(?:[\w'’.-]+\s+){0,3}?(?:hospital|surgery|clinic)s?\b")


def sensitivity_of(text: str, message: str = "") -> str:
    """`text`'s sensitivity; a request in `message` (the whole message) to keep it private makes it private."""
    if PRIVATE.search(message or text):
        return "private"
    return "sensitive" if sensitive_topic(text) else "normal"


def sensitive_topic(text: str) -> bool:
    """Whether `text` is about one of the sensitive categories, private or not."""
    return bool(_SENSITIVE.search(_WORKPLACE.sub(lambda m: m["job"], text))) or loss_of_life(text)


def is_private(message: str) -> bool:
    return bool(PRIVATE.search(message))
