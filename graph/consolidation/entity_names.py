"""Duplicate entities: names so alike they likely name one thing ("Jon Smith", "John Smith"). Pure.

Two entities are duplicates when their normalised names (graph/core/keys.py: case and spaces
ignored) have a similarity of at least `entity_similarity` (RapidFuzz's normalised Indel ratio,
0..1), their kinds agree (or one is still `other`), both names have at least MIN_NAME_CHARS
characters, they hold the same digits ("Room 101" is not "Room 102"), and neither is the user.
The entity with more mentions stays (then the older, then the lower id); each entity not yet merged
gathers its duplicates not yet merged, so nothing is merged through a chain. Name similarity alone
can take two people for one (Daniel, Daniela): the preview shows every pair before anything merges,
and the step can be turned off.

All names of one tenant are compared in blocks of rows, in C++ (RapidFuzz's cdist): quadratic in
the number of entities, which stays far below the number of memories."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz, process

from graph.consolidation.records import EntityRow
from graph.core.keys import name_key
from graph.entities.rules import USER_SUBJECTS

MIN_NAME_CHARS = 4
BLOCK = 512  # rows of the similarity matrix computed at once
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class EntityMerge:
    keep: str
    gone: str
    keep_name: str
    gone_name: str
    similarity: float


def _kinds_agree(a: EntityRow, b: EntityRow) -> bool:
    return a.kind == b.kind or "other" in (a.kind, b.kind)


def _priority(e: EntityRow) -> tuple:
    return (-e.mentions, e.created_at is None, e.created_at or 0, e.id)


def duplicates(entities: Sequence[EntityRow], threshold: float) -> list[EntityMerge]:
    eligible = [e for e in entities
                if len(name_key(e.name)) >= MIN_NAME_CHARS and name_key(e.name) not in USER_SUBJECTS]
    eligible.sort(key=_priority)
    names = [name_key(e.name) for e in eligible]
    cutoff = int(np.ceil(threshold * 100))
    pairs: dict[int, list[tuple[int, float]]] = {}
    for start in range(0, len(names), BLOCK):
        scores = process.cdist(names[start:start + BLOCK], names, scorer=fuzz.ratio, score_cutoff=cutoff,
                               dtype=np.uint8, workers=1)
        for row, col in zip(*np.nonzero(scores), strict=True):
            i = start + int(row)
            if i != int(col):
                pairs.setdefault(i, []).append((int(col), float(fuzz.ratio(names[i], names[int(col)])) / 100))
    merged: set[int] = set()
    found: list[EntityMerge] = []
    for i, keep in enumerate(eligible):
        if i in merged or i not in pairs:
            continue
        for j, similarity in sorted(pairs[i], key=lambda p: (-p[1], p[0])):
            gone = eligible[j]
            if j in merged or j == i or similarity < threshold or not _kinds_agree(keep, gone):
                continue
            if _DIGITS.findall(names[i]) != _DIGITS.findall(names[j]):
                continue
            merged.update((i, j))
            found.append(EntityMerge(keep.id, gone.id, keep.name, gone.name, round(similarity, 4)))
    return found
