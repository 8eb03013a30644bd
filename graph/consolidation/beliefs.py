"""Stored beliefs that disagree, and stored beliefs that agree. Pure.

Contradictions: two active beliefs that are rivals by the belief engine's one rule set
(graph/beliefs/rivalry.py through SlotState.rivals: a single-valued predicate, exclusive claims, the
same slot, another normalised value, the scope gate, overlapping windows), with no conflict between
them yet. They coexist when they were stored before the predicate became exclusive, or imported.
Each pair becomes a pending conflict, the newer belief on its `new` side: a person decides, as for
any conflict; nothing is resolved here. A `keep_both` predicate lets rivals stand, and is left alone.

Corroboration: active beliefs asserting the same claim (subject, predicate, normalised value, scope
and session, overlapping windows) from distinct sources, kept as separate memories (a predicate whose
dedup policy is `store`, or memories stored before dedup existed). Each gains the others' sources,
so its corroboration counts them and its trust rises by the trust formula (graph/beliefs/trust.py)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import datetime

from graph.beliefs.predicates import PredicateSchema
from graph.beliefs.rivalry import may_have_rivals
from graph.beliefs.slots import Belief, SlotState
from graph.consolidation.records import Item, Source
from graph.memories.model import Claim

CONFLICT_REASON = "coexisting_rivals"  # the reason a conflict consolidation records carries


@dataclass(frozen=True)
class Contradiction:
    new: str  # the newer belief
    existing: str
    subject: str
    predicate: str
    values: tuple[str, str]  # new, existing


@dataclass(frozen=True)
class Corroboration:
    target: str
    peers: tuple[str, ...]  # the memories whose sources it gains
    sources: tuple[Source, ...]  # the sources it gains


def belief_of(item: Item) -> Belief:
    assert item.claim is not None
    c = item.claim
    return Belief(id=item.id, status="active", succeeded=False, source_type=item.source_type,
                  corroboration=max(len(item.sources), 1), reinforcements=item.reinforcements, disputes=item.disputes,
                  created_at=item.created_at, event_at=item.event_at, normalized_value=c.normalized_value or "",
                  exclusive=c.exclusive, scope=c.scope, session_id=c.session_id, valid_from=c.valid_from,
                  valid_until=c.valid_until, sources=set(item.sources))


def contradictions(items: Collection[Item], schema_of: Callable[[str], PredicateSchema],
                   linked: Collection[frozenset[str]]) -> list[Contradiction]:
    """Every pair of active rivals no conflict links yet (`linked`: pairs a CONTRADICTS edge joins)."""
    slots: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for item in items:
        if item.slot is not None:
            slots[item.slot].append(item)
    found: list[Contradiction] = []
    for (subject, predicate), members in sorted(slots.items()):
        schema = schema_of(predicate)
        if len(members) < 2 or schema.conflict_policy == "keep_both":
            continue
        members.sort(key=lambda i: (i.created_at, i.id))
        state = SlotState(key="", schema=schema, beliefs=[belief_of(i) for i in members])
        by_id = {i.id: i for i in members}
        seen: set[frozenset[str]] = set()
        for item in members:
            claim = item.claim
            assert claim is not None
            if not may_have_rivals(claim, schema):
                continue
            for rival in state.rivals(claim, exclude=item.id):
                pair = frozenset((item.id, rival.id))
                if pair in seen or pair in linked:
                    continue
                seen.add(pair)
                older, newer = sorted((item, by_id[rival.id]), key=lambda i: (i.created_at, i.id))
                assert older.claim is not None and newer.claim is not None
                found.append(Contradiction(newer.id, older.id, subject, predicate,
                                           (newer.claim.value, older.claim.value)))
    return found


def _same_belief(c: Claim) -> tuple:
    return (c.subject, c.predicate, c.normalized_value, c.scope, c.session_id if c.scope == "session" else None)


def _overlap(a: Claim, b: Claim) -> bool:
    # Half-open windows [valid_from, valid_until), as the belief engine reads them (slots.py).
    return ((a.valid_from is None or b.valid_until is None or a.valid_from < b.valid_until)
            and (a.valid_until is None or b.valid_from is None or b.valid_from < a.valid_until))


def corroborations(items: Collection[Item]) -> list[Corroboration]:
    """For each belief, the sources of the others asserting the same claim that it lacks."""
    same: dict[tuple, list[Item]] = defaultdict(list)
    for item in items:
        if item.claim is not None:
            same[_same_belief(item.claim)].append(item)
    found: list[Corroboration] = []
    for key in sorted(same, key=repr):
        members = sorted(same[key], key=lambda i: (i.created_at, i.id))
        if len(members) < 2:
            continue
        for item in members:
            assert item.claim is not None
            gained: dict[str, Source] = {}
            peers: list[str] = []
            for other in members:
                assert other.claim is not None
                if other.id == item.id or not _overlap(item.claim, other.claim):
                    continue
                new = {k: s for k, s in other.sources.items() if k not in item.sources and k not in gained}
                if new:
                    peers.append(other.id)
                    gained.update(new)
            if gained:
                found.append(Corroboration(item.id, tuple(peers), tuple(gained[k] for k in sorted(gained))))
    return found


def trust_after(item: Item, gained: int, now: datetime) -> float:
    return item.trust_with(len(item.sources) + gained, item.source_type, now)


def schemas_by_predicate(schemas: Mapping[str, PredicateSchema]) -> Callable[[str], PredicateSchema]:
    """A predicate's registered schema, or the default one (single-valued, supersede, corroborate)."""
    return lambda predicate: schemas.get(predicate) or PredicateSchema(predicate=predicate)
