"""The plan of one consolidation: every change it would make, with its reason, computed from the
tenant as it is. Each step sees the ones before it as the plan leaves them (a duplicate archived by
a merge is no digest member; a survivor's gained sources count for corroboration), so applying the
plan in order does exactly what it says. A dry run answers the plan; a forced run computes it the
same way and applies it (graph/consolidation/apply.py)."""
from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from graph.consolidation import beliefs, digests, duplicates, entity_names, snapshot
from graph.consolidation.model import Change, Checked, Counts
from graph.consolidation.records import Item, Prunable, Source
from graph.consolidation.summarise import Event, Summariser
from graph.memories.model import Claim
from graph.retrieval.cosine_scale import CosineScale
from graph.store.gateway import GraphRunner

Progress = Callable[[int, int], Awaitable[None]]


@dataclass(frozen=True)
class Merge:
    group: duplicates.Group
    tags: tuple[str, ...]
    importance: float
    source_type: str
    expires_at: datetime | None
    claims: tuple[Claim, ...]  # the claims of the group (their slots are locked)
    change: Change


@dataclass(frozen=True)
class Conflict:
    found: beliefs.Contradiction
    claims: tuple[Claim, Claim]
    trusts: tuple[float, float]  # new, existing
    change: Change


@dataclass(frozen=True)
class Corroborate:
    found: beliefs.Corroboration
    claim: Claim
    change: Change


@dataclass(frozen=True)
class Digest:
    id: str
    members: tuple[Item, ...]
    text: str
    change: Change


@dataclass(frozen=True)
class EntityMerge:
    found: entity_names.EntityMerge
    change: Change


@dataclass(frozen=True)
class Prune:
    found: Prunable
    change: Change


@dataclass
class Plan:
    agent: str
    before: Counts
    merges: list[Merge] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    corroborations: list[Corroborate] = field(default_factory=list)
    digests: list[Digest] = field(default_factory=list)
    entity_merges: list[EntityMerge] = field(default_factory=list)
    prunes: list[Prune] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # seconds each part of planning took

    def changes(self) -> list[Change]:
        steps: list[list] = [self.merges, self.conflicts, self.corroborations, self.digests, self.entity_merges,
                             self.prunes]
        return [op.change for ops in steps for op in ops]


async def plan(runner: GraphRunner, request: Checked, now: datetime, *, summariser: Summariser, vector_max_k: int,
               scale: CosineScale, exact_pairs_max: int, progress: Progress | None = None) -> Plan:
    """`exact_pairs_max`: up to this many probes, near-duplicates come from an exact join of their
    embeddings (an operator's opt-in); above it, and by default (0), from the vector index
    (docs/consolidation.md)."""
    agent, t, steps = request.agent, request.thresholds, request.steps
    total, active = await snapshot.counts(runner, agent)
    result = Plan(agent, Counts(total, active))
    done, clock = 0, time.perf_counter()

    async def step_done(name: str) -> None:
        nonlocal done, clock
        result.timings[f"plan {name}"] = time.perf_counter() - clock
        done += 1
        if progress is not None:
            await progress(done, len(steps.on()))
        clock = time.perf_counter()

    items = await snapshot.active(runner, agent, now) if any(
        (steps.duplicates, steps.contradictions, steps.corroboration, steps.digests)) else {}
    schema_of = beliefs.schemas_by_predicate(await snapshot.schemas(runner, agent)) if any(
        (steps.duplicates, steps.contradictions)) else beliefs.schemas_by_predicate({})
    result.timings["plan snapshot"] = time.perf_counter() - clock
    clock = time.perf_counter()

    if steps.duplicates:
        probes = sorted(i.id for i in items.values() if i.embedded and i.category != duplicates.DIGEST_CATEGORY)
        if 0 < len(probes) <= exact_pairs_max:
            near = await snapshot.exact_neighbours(runner, agent, probes, t.duplicate_similarity)
        else:
            near = await snapshot.neighbours(runner, agent, probes, t.duplicate_similarity, vector_max_k, scale)
        dedup_policy = lambda predicate: schema_of(predicate).dedup_policy  # noqa: E731
        for group in duplicates.groups(items, near, t.duplicate_similarity, dedup_policy):
            result.merges.append(_merge(items, group, now))
        await step_done("duplicates")

    if steps.contradictions:
        linked = await snapshot.contradicted(runner, agent)
        claimed = [i for i in items.values() if i.claim is not None]
        for found in beliefs.contradictions(claimed, schema_of, linked):
            new, old = items[found.new], items[found.existing]
            assert new.claim is not None and old.claim is not None
            change = Change("contradiction", new.id, (old.id,), reason=(
                f"{found.subject} {found.predicate}: {found.values[0]!r} and {found.values[1]!r} are both active, "
                "rivals by the belief rules, with no conflict recorded; a pending conflict asks a person to decide"))
            result.conflicts.append(Conflict(found, (new.claim, old.claim),
                                             (new.trust_with(len(new.sources), new.source_type, now),
                                              old.trust_with(len(old.sources), old.source_type, now)), change))
        await step_done("contradictions")

    if steps.corroboration:
        for gain in beliefs.corroborations([i for i in items.values() if i.claim is not None]):
            item = items[gain.target]
            assert item.claim is not None
            after = beliefs.trust_after(item, len(gain.sources), now)
            change = Change("corroborate", item.id, gain.peers, reason=(
                f"{len(gain.sources)} more source(s) assert the same claim "
                f"({', '.join(s.type + (':' + s.ref if s.ref else '') for s in gain.sources)}): "
                f"corroboration {len(item.sources)} -> {len(item.sources) + len(gain.sources)}"),
                trust_before=item.trust, trust_after=after)
            result.corroborations.append(Corroborate(gain, item.claim, change))
        await step_done("corroboration")

    if steps.digests:
        events = digests.candidates(items.values(), now, t.digest_min_age_days)
        loaded = await snapshot.vectors(runner, agent, [e.id for e in events])
        vecs = {i: v for i, (_, v) in loaded.items()}
        for cluster in digests.clusters(events, vecs, similarity=t.digest_similarity,
                                        window_hours=t.digest_window_hours, min_members=t.digest_min_members):
            members = tuple(cluster.members)
            text = await summariser.summarise([Event(loaded[m.id][0], m.when, float(v @ cluster.centroid))
                                               for m, v in zip(members, cluster.vectors, strict=True)])
            ident = digests.digest_id(agent, [m.id for m in members])
            change = Change("digest", ident, tuple(m.id for m in members), reason=(
                f"{len(members)} related events within {t.digest_window_hours:g} h of each other, each with a "
                f"cosine of at least {t.digest_similarity:g} to their centroid, all at least "
                f"{t.digest_min_age_days:g} days old ({summariser.name} summary)"),
                score=round(cluster.cohesion(), 4), text=text)
            result.digests.append(Digest(ident, members, text, change))
        await step_done("digests")

    if steps.entities:
        for pair in entity_names.duplicates(await snapshot.entities(runner, agent), t.entity_similarity):
            change = Change("entity_merge", pair.keep, (pair.gone,), reason=(
                f"{pair.gone_name!r} is {pair.similarity:.0%} similar to {pair.keep_name!r} (threshold "
                f"{t.entity_similarity:.0%}); the entity with more mentions stays"), score=pair.similarity)
            result.entity_merges.append(EntityMerge(pair, change))
        await step_done("entities")

    if steps.prune:
        cutoff = now - timedelta(days=t.retention_days)
        for stale in await snapshot.prunable(runner, agent, cutoff):
            change = Change("prune", stale.id, reason=(
                f"{stale.reason} since {stale.since:%Y-%m-%d}, past the retention of {t.retention_days:g} days"
                if stale.since else f"{stale.reason}, past the retention of {t.retention_days:g} days"))
            result.prunes.append(Prune(stale, change))
        await step_done("prune")
    return result


def _merge(items: dict[str, Item], group: duplicates.Group, now: datetime) -> Merge:
    """The merge of a group, applied to the plan's view: the members leave, the survivor takes the
    union of their sources and tags, the highest importance, the most trusted source type and the
    latest expiry."""
    survivor = items[group.survivor]
    members = [items[m] for m, _ in group.members]
    everyone = [survivor, *members]
    sources: dict[str, Source] = {}
    for item in everyone:
        sources.update(item.sources)
    source_type = duplicates.best_source([i.source_type for i in everyone])
    expiries = [i.expires_at for i in everyone]
    expires_at = None if any(e is None for e in expiries) else max(e for e in expiries if e is not None)
    trust_after = survivor.trust_with(len(sources), source_type, now)
    lowest = min(cos for _, cos in group.members)
    change = Change("merge", survivor.id, tuple(m.id for m in members), reason=(
        f"{len(members)} near-duplicate(s), cosine {lowest:.3f} or more to it and alike in everything else, "
        f"archived into it; it stays (a claim first, then the higher trust, then the older) with all "
        f"{len(sources)} source(s)"), score=lowest, trust_before=survivor.trust, trust_after=trust_after)
    merge = Merge(group, duplicates.merged_tags([i.tags for i in everyone]), max(i.importance for i in everyone),
                  source_type, expires_at, tuple(i.claim for i in everyone if i.claim is not None), change)
    # What later steps see: the members are archived, the survivor holds what it gained.
    for m in members:
        del items[m.id]
    items[survivor.id] = replace(survivor, sources=sources, source_type=source_type, trust=trust_after,
                                 tags=merge.tags, importance=merge.importance, expires_at=expires_at)
    return merge
