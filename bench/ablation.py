"""Rules as they would stand had their writer not read some lines: the held-out-fold ablation that the
fold benchmarks share (bench/routing_folds.py for the question router, bench/ingestion_folds.py for
ingestion).

Rules written from a labelled tuning half score well on it whatever they are worth on new lines.
To see what carries over, the half is split into folds, and each fold is measured with every branch
of every pattern (each `|` alternative, down to single words of a word list) that matches lines of
that fold alone, among the tuning lines, switched off: a phrase written for one line of that fold
does not count for it. Branches that match lines of two folds or more, or none, stay: a writer with
the other folds in hand would have had them; so do plain phrases the dataset's guide (the
specification every writer starts from) spells out. The code around the patterns is not ablated;
a synonym any writer would add from the word next to it is, so the figure is rough both ways.

`Ablation` takes the patterns by holder (a module attribute holding a compiled pattern, or a tuple
of them, of markers or of (name, pattern) pairs) and, for each, the texts each line showed it (the
same for every pattern of the question router; what the pattern was actually run on, traced, for
ingestion, whose patterns read clauses and values as well as sentences)."""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from types import ModuleType
from typing import Any, cast

_NEVER = "(?!)"  # a branch switched off matches nothing
_PLAIN = re.compile(r"^(?:\\b)?[a-z' ]+(?:\\b)?$")

Holder = tuple[ModuleType, str]


def branches(pattern: str) -> list[tuple[int, int]]:
    """The span of every branch of every alternation (`a|b|c`) in a regular expression's text, at any
    depth; empty branches left out."""
    return [span for group in alternations(pattern) for span in group]


def alternations(pattern: str) -> list[list[tuple[int, int]]]:
    """The branches of each alternation in a regular expression's text, one list per alternation (the
    siblings), at any depth; empty branches left out."""
    out: list[list[tuple[int, int]]] = []
    stack: list[tuple[int, list[int]]] = [(0, [])]
    i, n = 0, len(pattern)

    def close(start: int, bars: list[int], end: int) -> None:
        if bars:
            edges = [start, *(b + 1 for b in bars)]
            ends = [*bars, end]
            out.append([(a, b) for a, b in zip(edges, ends, strict=True) if b > a])

    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i += 1
            if i < n and pattern[i] == "^":
                i += 1
            if i < n and pattern[i] == "]":
                i += 1
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
            i += 1
            continue
        if c == "(":
            j = i + 1
            if pattern.startswith("?P<", j):
                j = pattern.index(">", j) + 1
            elif pattern.startswith(("?:", "?=", "?!"), j):
                j += 2
            elif pattern.startswith(("?<=", "?<!"), j):
                j += 3
            elif pattern.startswith("?", j):  # inline flags: (?i:...)
                j += 1
                while pattern[j].isalpha() or pattern[j] == "-":
                    j += 1
                j += 1
            stack.append((j, []))
            i = j
            continue
        if c == "|":
            stack[-1][1].append(i)
        elif c == ")":
            start, bars = stack.pop()
            close(start, bars, i)
        i += 1
    close(stack[0][0], stack[0][1], n)
    return out


def switch_off(pattern: str, spans: Sequence[tuple[int, int]]) -> str:
    outer = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in spans)]
    for start, end in sorted(outer, reverse=True):
        pattern = pattern[:start] + _NEVER + pattern[end:]
    return pattern


def signature(pattern: re.Pattern[str], text: str) -> tuple:
    return tuple((m.span(), m.groups()) for m in pattern.finditer(text))


def in_guide(branch: str, guide: str) -> bool:
    """A branch that is a plain phrase the guide spells out (three letters or more)."""
    if not _PLAIN.match(branch):
        return False
    phrase = branch.replace("\\b", "").strip()
    return len(phrase) >= 3 and re.search(r"\b" + re.escape(phrase) + r"\b", guide) is not None


def items_of(value: Any) -> list[Any]:
    """A holder's items: one compiled pattern, or the members of a tuple."""
    return list(value) if isinstance(value, (tuple, list)) else [value]


def pattern_of(item: Any) -> re.Pattern[str]:
    if isinstance(item, re.Pattern):
        return item
    if isinstance(item, tuple):
        return item[1]
    return item.pattern


def with_pattern(item: Any, pattern: re.Pattern[str]) -> Any:
    if isinstance(item, re.Pattern):
        return pattern
    if isinstance(item, tuple):
        return (item[0], pattern)
    return replace(item, pattern=pattern)


def holders_in(prefix: str) -> list[Holder]:
    """Every module attribute under `prefix` holding a compiled pattern or a tuple of them, each held
    once (where it is defined: the first module in name order that holds that object)."""
    seen: set[int] = set()
    out: list[Holder] = []
    for name in sorted(n for n in sys.modules if n == prefix or n.startswith(prefix + ".")):
        module = sys.modules[name]
        for attr, value in sorted(vars(module).items()):
            items = items_of(value)
            if id(value) in seen or not items or not all(isinstance(x, re.Pattern) for x in items):
                continue
            seen.add(id(value))
            out.append((module, attr))
    return out


class Ablation:
    """Which branches of which patterns match which tuning lines.

    `texts(h, it, line)`: the texts line `line` showed item `it` of holder `h`."""

    def __init__(self, holders: Sequence[Holder], lines: int, texts: Callable[[int, int, int], Sequence[str]],
                 guide: str, prefix: str, strict: bool = False) -> None:
        """`strict`: a branch also matches a line when the line needs its alternation and the branch
        alone, its siblings switched off, still matches it as before (without it, two branches that
        match the same words, `talked|talked about`, each look unused, since switching either off
        leaves the other, and a held-out line keeps both whoever wrote them); and a pattern with no
        alternation of its own (one item of a tuple of them: `\\bminus `) is a branch as a whole."""
        self.holders, self.prefix = list(holders), prefix
        # fires[(holder, item, branch span)] = the lines whose matches change without that branch
        self.fires: dict[tuple[int, int, tuple[int, int]], set[int]] = {}
        guide = guide.lower()
        quoted = re.findall(r'"([^"]+)"', guide)

        def changed(spans: Sequence[tuple[int, int]], compiled: re.Pattern[str], shown: list[tuple[int, str]],
                    base: list[tuple]) -> list[bool]:
            without = re.compile(switch_off(compiled.pattern, spans), compiled.flags)
            return [signature(without, t) != b for (_, t), b in zip(shown, base, strict=True)]

        for h, (module, attr) in enumerate(self.holders):
            for it, item in enumerate(items_of(getattr(module, attr))):
                compiled = pattern_of(item)
                shown = [(i, t) for i in range(lines) for t in texts(h, it, i)]
                base = [signature(compiled, t) for _, t in shown]
                groups = alternations(compiled.pattern)
                whole = (0, len(compiled.pattern))
                # A whole pattern stays when it matches a phrase the guide quotes ("but not").
                if strict and not any(g and g[0][0] == 0 and g[-1][1] == whole[1] for g in groups) \
                        and not any(compiled.search(phrase + " x") for phrase in quoted):
                    groups.append([whole])
                for group in groups:
                    needed = changed(group, compiled, shown, base) if strict and len(group) > 1 else None
                    for span in group:
                        if in_guide(compiled.pattern[span[0]:span[1]], guide):
                            continue
                        hit = changed([span], compiled, shown, base)
                        if needed is not None and any(needed):
                            kept = changed([s for s in group if s != span], compiled, shown, base)
                            hit = [a or (n and not k) for a, n, k in zip(hit, needed, kept, strict=True)]
                        fired = {i for (i, _), a in zip(shown, hit, strict=True) if a}
                        if fired:
                            self.fires[(h, it, span)] = fired

    def fitted_to(self, held_out: set[int]) -> dict[tuple[int, int], list[tuple[int, int]]]:
        """The branches that match held-out lines only, per pattern."""
        out: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
        for (h, it, span), lines in self.fires.items():
            if lines <= held_out:
                out[(h, it)].append(span)
        return out

    @contextmanager
    def without(self, held_out: set[int]) -> Iterator[int]:
        """The rules with the held-out lines' own branches switched off; yields how many."""
        off = self.fitted_to(held_out)
        saved: list[tuple[ModuleType, str, Any]] = []
        try:
            for h, (module, attr) in enumerate(self.holders):
                original = getattr(module, attr)
                items = items_of(original)
                if not any((h, it) in off for it in range(len(items))):
                    continue
                changed = [with_pattern(item, re.compile(switch_off(pattern_of(item).pattern, off[(h, it)]),
                                                         pattern_of(item).flags))
                           if (h, it) in off else item for it, item in enumerate(items)]
                value = changed[0] if isinstance(original, re.Pattern) else type(original)(changed)
                patch(self.prefix, attr, original, value, saved)
            yield sum(len(v) for v in off.values())
        finally:
            for module, attr, original in saved:
                setattr(module, attr, original)


def patch(prefix: str, attr: str, original: Any, value: Any, saved: list[tuple[ModuleType, str, Any]]) -> None:
    """Set `attr` to `value` in every module under `prefix` that holds `original` under that name (a
    module that imported it by name holds it too); `saved` collects what to put back."""
    for module in [m for name, m in sys.modules.items() if name == prefix or name.startswith(prefix + ".")]:
        if getattr(module, attr, None) is original:
            saved.append((module, attr, original))
            setattr(module, attr, value)


class Traced:
    """A compiled pattern that notes every text it is run on (`seen`), for the ablation's tracing."""

    def __init__(self, pattern: re.Pattern[str], seen: set[str]) -> None:
        self._pattern, self._seen = pattern, seen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)

    def _note(self, text: Any) -> None:
        if isinstance(text, str):
            self._seen.add(text)

    def search(self, text: str, *args: Any) -> Any:
        self._note(text)
        return self._pattern.search(text, *args)

    def match(self, text: str, *args: Any) -> Any:
        self._note(text)
        return self._pattern.match(text, *args)

    def fullmatch(self, text: str, *args: Any) -> Any:
        self._note(text)
        return self._pattern.fullmatch(text, *args)

    def finditer(self, text: str, *args: Any) -> Any:
        self._note(text)
        return self._pattern.finditer(text, *args)

    def findall(self, text: str, *args: Any) -> Any:
        self._note(text)
        return self._pattern.findall(text, *args)

    def sub(self, repl: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        self._note(text)
        return self._pattern.sub(repl, text, *args, **kwargs)

    def split(self, text: str, *args: Any, **kwargs: Any) -> Any:
        self._note(text)
        return self._pattern.split(text, *args, **kwargs)


@contextmanager
def tracing(holders: Sequence[Holder], prefix: str) -> Iterator[dict[tuple[int, int], set[str]]]:
    """Every pattern of `holders` traced while inside: yields (holder, item) -> the texts it ran on
    (clear the sets between lines to attribute texts to lines)."""
    seen: dict[tuple[int, int], set[str]] = defaultdict(set)
    saved: list[tuple[ModuleType, str, Any]] = []
    try:
        for h, (module, attr) in enumerate(holders):
            original = getattr(module, attr)
            items = items_of(original)
            # A marker or a (name, pattern) pair keeps its other fields around the traced pattern.
            traced = [with_pattern(item, cast(re.Pattern[str], Traced(pattern_of(item), seen[(h, it)])))
                      if not isinstance(item, re.Pattern) else Traced(item, seen[(h, it)])
                      for it, item in enumerate(items)]
            value = traced[0] if isinstance(original, re.Pattern) else type(original)(traced)
            patch(prefix, attr, original, value, saved)
        yield seen
    finally:
        for module, attr, original in saved:
            setattr(module, attr, original)
