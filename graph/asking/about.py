"""About-me, entity and relationship: answers from the belief graph and the entity graph.

- about_me: the current beliefs (active, valid now, not stored as how things were, within the
  ceiling) grouped by memory type, most important and trusted first, with the user's current
  relationships from the entity graph, cut to a token budget.
- entity: the entity the name resolves to (or an alias of it), its relationships with strength
  and history, and the memories that mention it, newest last.
- relationship: two names, the shortest chain of relationships between them; one name, its
  relationships, the chain from the user to it and what mentions it; no name, the user's
  relationships and the memories that name the role asked about ("who's my dentist")."""
from __future__ import annotations

import re

from graph.asking.answers import cite, day, one_line
from graph.asking.markers import ROLES
from graph.asking.model import Answer, Cited, Section
from graph.asking.reads import Reads
from graph.asking.route import Route
from graph.context.tokens import TokenEstimator
from graph.core.errors import NotFound
from graph.entities.model import Relationship

# The summary's parts, in this order; a memory type not named here goes to Other.
SECTIONS = (("Preferences", ("preference",)), ("Facts", ("fact",)), ("Goals", ("goal",)),
            ("Relationships", ("entity",)), ("Events", ("event",)), ("Decisions", ("decision",)),
            ("Procedures", ("procedure",)), ("Other", ("action", "other")))
USER = "user"  # the entity claims about the user name (docs/entities.md)


def _relation_line(r: Relationship) -> str:
    state = "current" if r.current else f"until {day(r.valid_until)}"
    return f"{r.source.name} {r.type} {r.target.name} (strength {r.strength:.2f}, {state})"


async def _user_relationships(reads: Reads) -> list[Relationship]:
    user = await reads.entity_named(USER)
    if user is None:
        return []
    return list((await reads.entities.get(reads.agent, user.id, reads.entity_as_of)).relationships)


async def about_me(reads: Reads, route: Route, budget: int, estimate: TokenEstimator) -> Answer:
    # A line costs five tokens at least: more memories than that could not fit the budget.
    memories = await reads.profile(limit=max(20, min(200, budget // 5)))
    relations = [r for r in await _user_relationships(reads) if r.current]
    by_section: dict[str, list] = {title: [] for title, _ in SECTIONS}
    for m in memories:
        title = next((t for t, types in SECTIONS if m.memory_type in types), "Other")
        by_section[title].append(m)
    # Round robin over the sections in their order, so a budget keeps some of each kind.
    queues = {t: [("memory", m) for m in ms] for t, ms in by_section.items()}
    queues["Relationships"] = [("relation", r) for r in relations] + queues["Relationships"]
    chosen: dict[str, list] = {t: [] for t in queues}
    used = 0
    progressed = True
    while progressed:
        progressed = False
        for title in queues:
            if not queues[title]:
                continue
            kind, thing = queues[title].pop(0)
            line = _relation_line(thing) if kind == "relation" else one_line(thing)
            cost = estimate(f"- {line}\n") + (0 if chosen[title] else estimate(f"{title}:\n"))
            if used + cost <= budget:
                chosen[title].append((kind, thing, line))
                used += cost
                progressed = True
            else:
                queues[title] = []  # the budget is spent for this part: keep the others' turns
    cited: dict[str, Cited] = {}
    sections = []
    for title, picked in chosen.items():
        if not picked:
            continue
        ids = []
        for kind, thing, _ in picked:
            if kind == "memory":
                cite(cited, thing, f"a current {thing.memory_type} about the user (importance "
                                   f"{thing.importance:.2f}, confidence {thing.confidence:.2f})")
                ids.append(thing.id)
        sections.append(Section(title, tuple(line for _, _, line in picked), tuple(ids)))
    summary = "\n".join(f"{s.title}: " + "; ".join(s.lines) for s in sections) or \
        "Nothing is known about the user yet."
    left_out = len(memories) + len(relations) - sum(len(s.lines) for s in sections)
    return Answer(route=route, handler="about_me", found=bool(sections), summary=summary,
                  memories=tuple(cited.values()), sections=tuple(sections),
                  relationships=tuple(relations), explain=((
                      f"about_me: {len(memories)} current beliefs and {len(relations)} current relationships of "
                      f"the user, grouped by type; {left_out} left out to keep within {budget} tokens"),))


def _names(route: Route) -> list[str]:
    names = list(route.slots.entity)
    if not names and route.slots.topic:
        names = [route.slots.topic]
    return names


async def _mentions(reads: Reads, names: list[str], limit: int) -> list:
    return (await reads.recent(mentions=names, limit=limit))[-limit:]


async def entity(reads: Reads, route: Route, limit: int) -> Answer:
    names = _names(route)
    if not names:
        return Answer(route=route, handler="entity", found=False, summary="The question names no one and nothing.",
                      memories=(), explain=("entity: no name found in the question",))
    name = names[0]
    found = await reads.entity_named(name)
    about = None
    aliases: list[str] = []
    if found is not None:
        about = await reads.entities.about(reads.agent, found.id, reads.entity_as_of)
        aliases = [found.name, *found.aliases]
    mentions = await _mentions(reads, list(dict.fromkeys([name, *aliases])), limit)
    cited: dict[str, Cited] = {}
    for f in mentions:
        cite(cited, f.memory, f"mentions {name!r} ({day(f.at)})")
    lines = []
    relations: list[Relationship] = []
    if about is not None:
        relations = [r for group in about.relationships for r in group.relationships]
        lines.append(f"{about.entity.name} ({about.entity.kind}), named in {about.entity.mentions} claims"
                     + (f", also known as {', '.join(about.entity.aliases)}" if about.entity.aliases else ""))
        lines += [_relation_line(r) for r in relations[:10]]
    lines += [f"{day(f.at)}: {one_line(f.memory)}" for f in mentions[-10:]]
    explain = [f"entity: {name!r} " + (f"is entity {found.id} in the entity graph ({len(relations)} relationships)"
                                       if found else "is not in the entity graph; the memories that mention it"),
               f"{len(mentions)} memories mention it (by its words' stems, newest {limit} at most)"]
    return Answer(route=route, handler="entity", found=bool(about or mentions),
                  summary="\n".join(lines) or f"Nothing is known about {name}.", memories=tuple(cited.values()),
                  entity=about, relationships=tuple(relations), explain=tuple(explain))


async def relationship(reads: Reads, route: Route, question: str, limit: int) -> Answer:
    names = list(route.slots.entity)
    explain: list[str] = []
    cited: dict[str, Cited] = {}
    lines: list[str] = []
    relations: list[Relationship] = []
    path = None
    ends = [await reads.entity_named(n) for n in names[:2]]
    if len(names) >= 2:
        a, b = ends[0], ends[1]
    else:
        a, b = await reads.entity_named(USER), ends[0] if ends else None
    if a is not None and b is not None and a.id != b.id:
        try:
            path = await reads.entities.path(reads.agent, a.id, b.id, max_hops=4, as_of=reads.now)
        except NotFound:
            path = None
        if path is not None:
            relations = list(path.relationships)
            lines.append(" → ".join(e.name for e in path.entities) + ": " +
                         "; ".join(_relation_line(r) for r in path.relationships))
            explain.append(f"relationship: the shortest chain from {a.name!r} to {b.name!r} in the entity graph, "
                           f"{len(path.relationships)} relationship(s)")
        else:
            explain.append(f"relationship: no chain of current relationships joins {a.name!r} and {b.name!r}")
    if b is not None and not relations:
        detail = await reads.entities.get(reads.agent, b.id, reads.entity_as_of)
        relations = list(detail.relationships)
        lines += [_relation_line(r) for r in relations[:10]]
        explain.append(f"relationship: the relationships of {b.name!r} ({len(relations)})")
    if not names:
        # "who's my dentist": the user's relationships, and what names the role.
        roles = [r for r in ROLES if re.search(rf"\b{re.escape(r)}s?\b", question.lower())]
        relations = await _user_relationships(reads)
        lines += [_relation_line(r) for r in relations if r.current][:10]
        names = roles
        explain.append(f"relationship: the user's relationships ({len(relations)}), and memories naming "
                       f"{', '.join(map(repr, roles)) or 'no role'}")
    mentions = await _mentions(reads, names, limit) if names else []
    for f in mentions:
        cite(cited, f.memory, f"mentions {', '.join(map(repr, names))} ({day(f.at)})")
    lines += [f"{day(f.at)}: {one_line(f.memory)}" for f in mentions[-10:]]
    return Answer(route=route, handler="relationship", found=bool(relations or mentions),
                  summary="\n".join(lines) or "No link is known.", memories=tuple(cited.values()),
                  relationships=tuple(relations), path=path, explain=tuple(explain))

