"""User text made safe for Lucene: every special character is escaped, so a query is always a
plain bag of terms (langchain-neo4j #5: unescaped text crashed full-text queries)."""
from __future__ import annotations

import re

# Lucene's classic query syntax: + - && || ! ( ) { } [ ] ^ " ~ * ? : \ /
_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")


def escape(text: str) -> str:
    escaped = _SPECIAL.sub(lambda m: "".join("\\" + ch for ch in m.group(1)), text)
    # Bare operator words would change the query's meaning; lower-case turns them into terms.
    return _OPERATORS.sub(lambda m: m.group(1).lower(), escaped).strip()
