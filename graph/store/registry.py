"""The Cypher registry: every statement the service runs, loaded once from cypher/ by name.

A file `cypher/<group>/<name>.cypher` holds one statement. Its leading `//` lines are its
documentation; a `// params: a, b` line declares exactly the parameters it takes. Callers
must pass exactly those, so a typo fails loudly instead of binding null. A `// returns: <shape>`
line declares what it answers (SHAPES below); the gateway checks every result against it, so a
second row where one was promised is a clear error naming the query, not an unpacking crash.

Cypher has no functions, so a block several statements share lives once in a
`cypher/<group>/<name>.fragment` file; a line `// include: <group>/<name>` in a statement is
replaced by the fragment (less its leading comment lines) when the registry loads it. The linter
checks the expanded statements.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import cypher

CYPHER_DIR = Path(cypher.__file__).resolve().parent
_PARAM_USE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_INCLUDE = re.compile(r"^\s*// include: (\S+)\s*$")

SHAPES = {
    "one": "exactly one row",
    "optional": "at most one row",
    "many": "any number of rows",
    "scalar": "exactly one row of one column",
    "write": "no rows",
}


def _order(name: str) -> tuple[int, str]:
    leaf = name.rpartition("/")[2]
    number = re.match(r"\d+", leaf)
    return (int(number.group()) if number else -1, leaf)


@dataclass(frozen=True)
class Query:
    name: str
    text: str
    params: frozenset[str]
    shape: str
    doc: str
    source: str = ""  # the file as loaded, includes expanded: what the linter checks

    def bind(self, params: dict) -> dict:
        given = set(params)
        if given != self.params:
            missing, extra = sorted(self.params - given), sorted(given - self.params)
            raise TypeError(f"query {self.name}: missing params {missing}, unexpected params {extra}")
        return params


class QueryRegistry:
    def __init__(self, root: Path = CYPHER_DIR) -> None:
        self._root = root
        self._queries: dict[str, Query] = {}
        for path in sorted(root.rglob("*.cypher")):
            name = path.relative_to(root).with_suffix("").as_posix()
            query = _parse(name, self._expand(name, path.read_text()))
            self._queries[query.name] = query

    def __getitem__(self, name: str) -> Query:
        try:
            return self._queries[name]
        except KeyError:
            raise KeyError(f"no Cypher file cypher/{name}.cypher") from None

    def names(self) -> list[str]:
        return sorted(self._queries)

    def group(self, prefix: str) -> list[Query]:
        """The queries directly in one folder, in name order, a leading number counted as a number
        (schema statements and migrations run in that order: 2_x before 10_x)."""
        return [q for n, q in sorted(self._queries.items(), key=lambda kv: _order(kv[0]))
                if n.rpartition("/")[0] == prefix]

    def _expand(self, name: str, source: str, within: tuple[str, ...] = ()) -> str:
        """`source` with every include replaced by its fragment, itself expanded (a fragment may
        include another; `within` holds the fragments being expanded, so a cycle fails loudly)."""
        lines = []
        for line in source.splitlines():
            match = _INCLUDE.match(line)
            if match is None:
                lines.append(line)
                continue
            included = match.group(1)
            fragment = self._root / f"{included}.fragment"
            if not fragment.exists():
                raise ValueError(f"cypher/{name}.cypher includes {included}, but {fragment} does not exist")
            if included in within:
                raise ValueError(f"cypher/{name}.cypher: fragment {included} includes itself")
            body = fragment.read_text().splitlines()
            while body and body[0].lstrip().startswith("//"):
                body.pop(0)
            lines += self._expand(name, "\n".join(body), (*within, included)).splitlines()
        return "\n".join(lines) + "\n"

    def statements(self, name: str, suffix: str) -> list[str]:
        """Non-Cypher statements kept beside the Cypher (ArcadeDB SQL DDL), one per line."""
        lines = (self._root / f"{name}.{suffix}").read_text().splitlines()
        return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("--")]


def _parse(name: str, source: str) -> Query:
    doc: list[str] = []
    body: list[str] = []
    params: frozenset[str] | None = None
    shape: str | None = None
    for line in source.splitlines():
        stripped = line.strip()
        if not body and stripped.startswith("//"):
            comment = stripped[2:].strip()
            if comment.startswith("params:"):
                params = frozenset(p.strip() for p in comment[len("params:"):].split(",") if p.strip())
            elif comment.startswith("returns:"):
                shape = comment[len("returns:"):].strip()
            else:
                doc.append(comment)
        elif stripped or body:
            body.append(line)
    text = "\n".join(body).strip()
    if not text:
        raise ValueError(f"cypher/{name}.cypher holds no statement")
    if shape not in SHAPES:
        raise ValueError(f"cypher/{name}.cypher must declare '// returns: <shape>' with a shape in "
                         f"{sorted(SHAPES)}, not {shape!r}")
    used = frozenset(_PARAM_USE.findall(_strip_strings(text)))
    declared = params if params is not None else frozenset()
    if used != declared:
        raise ValueError(f"cypher/{name}.cypher uses {sorted(used)} but declares {sorted(declared)}")
    return Query(name=name, text=text, params=declared, shape=shape, doc=" ".join(doc), source=source)


def _strip_strings(text: str) -> str:
    # '$' inside string literals is not a parameter.
    return re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", text)
