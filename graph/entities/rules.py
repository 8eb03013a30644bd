"""Which claims evidence which relationship between two entities: one pure rule table, no model.

A claim (subject, predicate, value) whose value names a thing evidences `subject -type-> value`
when its predicate is in RULES; `reverse` turns it round ("manager: Dana" means Dana manages the
subject). The kinds say what each end is, when the entity's kind is not known yet."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    type: str
    subject_kind: str
    value_kind: str
    reverse: bool = False


_WORKS_AT = Rule("works_at", "person", "organisation")
_LIVES_IN = Rule("lives_in", "person", "place")
_KNOWS = Rule("knows", "person", "person")
_MANAGES = Rule("manages", "person", "person")
_MANAGED_BY = Rule("manages", "person", "person", reverse=True)
_MEMBER_OF = Rule("member_of", "person", "organisation")
_USES = Rule("uses", "person", "product")
_BORN_IN = Rule("born_in", "person", "place")
_LOCATED_IN = Rule("located_in", "organisation", "place")

RULES: dict[str, Rule] = {
    "employer": _WORKS_AT, "works_at": _WORKS_AT, "works_for": _WORKS_AT, "company": _WORKS_AT,
    "lives_in": _LIVES_IN, "city": _LIVES_IN, "home_city": _LIVES_IN, "location": _LIVES_IN, "home": _LIVES_IN,
    "knows": _KNOWS, "friend": _KNOWS, "colleague": _KNOWS, "partner": _KNOWS, "spouse": _KNOWS,
    "manages": _MANAGES, "manager": _MANAGED_BY, "reports_to": _MANAGED_BY, "boss": _MANAGED_BY,
    "member_of": _MEMBER_OF, "team": _MEMBER_OF,
    "uses": _USES, "tool": _USES, "product": _USES,
    "born_in": _BORN_IN, "headquarters": _LOCATED_IN, "located_in": _LOCATED_IN,
}
RELATION_TYPES = tuple(sorted({r.type for r in RULES.values()}))
# The subject every claim about the user names: a person.
USER_SUBJECTS = frozenset({"user", "me", "i"})


def rule_for(predicate: str) -> Rule | None:
    """Predicates match case-insensitively, spaces and dashes read as underscores."""
    return RULES.get(predicate.strip().lower().replace(" ", "_").replace("-", "_"))


def subject_kind(subject: str, rule: Rule | None) -> str:
    if subject.strip().lower() in USER_SUBJECTS:
        return "person"
    return rule.subject_kind if rule else "other"
