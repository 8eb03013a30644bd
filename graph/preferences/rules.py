"""What the preferences do to a write and a read. Pure."""
from __future__ import annotations

import re
from datetime import datetime, timedelta

from graph.core.vocab import SENSITIVITIES
from graph.preferences.model import Preferences


def _topic_pattern(topic: str) -> re.Pattern[str]:
    """A topic as whole words in any case, the last one also plural ("work meeting" finds "work meetings")."""
    words = [re.escape(w) for w in topic.lower().split()]
    words[-1] += r"(?:s|es)?"
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)")


def never_store_reason(prefs: Preferences, memory_type: str, text: str, tags: tuple[str, ...] = (),
                       category: str | None = None) -> tuple[str, str] | None:
    """(field, why) when the preferences say never to store this memory; None when they allow it.
    A topic is found as whole words in the text, the category or a tag."""
    if memory_type in prefs.never_store_types:
        return "memory_type", (f"the agent's preferences say never to store {memory_type!r} memories "
                               "(GET /v1/preferences)")
    haystack = " \n ".join([text, category or "", *tags]).lower()
    for topic in prefs.never_store_topics:
        if _topic_pattern(topic).search(haystack):
            return "text", (f"the agent's preferences say never to store memories about {topic!r} "
                            "(GET /v1/preferences)")
    return None


def retention_expiry(prefs: Preferences, memory_type: str, now: datetime,
                     expires_at: datetime | None) -> datetime | None:
    """When a new memory expires: what it says, else its type's retention from now."""
    if expires_at is not None or memory_type not in prefs.retention_days:
        return expires_at
    return now + timedelta(days=prefs.retention_days[memory_type])


def cap_ceiling(requested: str, prefs: Preferences) -> str:
    """The sensitivity ceiling a read runs with: the request's, never above the agent's."""
    return min(requested, prefs.sensitivity_ceiling, key=SENSITIVITIES.index)
