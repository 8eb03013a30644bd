"""One vocabulary: the statuses Cypher names are the vocabulary's, and no statement builds a
tenant-scoped key itself (graph/core/keys.py builds every one and passes it in)."""
from __future__ import annotations

import re

from graph.core.vocab import CONFLICT_STATUSES, JOB_STATUSES, STATUSES
from graph.store.registry import QueryRegistry

# `status = 'x'`, `status: 'x'`, `status <> 'x'`, `status WHEN 'x'`, `status IN ['x', 'y']`.
_STATUS = re.compile(r"status\s*(?:=|<>|:|WHEN)\s*'([a-z_]+)'|status\s+IN\s+\[([^\]]*)\]")
# Migrations keep the key formats of their time: they are history, not code that runs on new data.
_HISTORY = "store/migrations/"


def _statements() -> dict[str, str]:
    registry = QueryRegistry()
    return {name: registry[name].text for name in registry.names()}


def test_every_status_cypher_names_is_in_the_vocabulary():
    named = set()
    for text in _statements().values():
        for single, listed in _STATUS.findall(text):
            named.update([single] if single else re.findall(r"'([a-z_]+)'", listed))
    assert named, "the pattern found no status at all: it no longer reads the statements"
    assert named <= set(STATUSES) | set(CONFLICT_STATUSES) | set(JOB_STATUSES)


def test_no_statement_builds_a_key_itself():
    builders = {name for name, text in _statements().items() if not name.startswith(_HISTORY)
                and (re.search(r"\+\s*' '\s*\+", text) or "\\u001f" in text or "\x1f" in text)}
    assert builders == set()
