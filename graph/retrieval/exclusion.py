"""What a request excludes ("restaurants, but not Italian"), as the visibility block matches it
inside Cypher: each term as whole words in any case, its last word also plural ("Italian" hides
"Italians"), after a CONTAINS on its first word so the regular expression runs only where the
term can be. Pure."""
from __future__ import annotations

import re

MAX_EXCLUDED = 20  # terms one request may exclude
MAX_EXCLUDED_CHARS = 100


def exclusion_params(terms: tuple[str, ...]) -> dict[str, list[str]]:
    """The Cypher parameters: `exclude_needles[i]` (a lower-case word the text must contain) and
    `exclude_patterns[i]` (the whole-word match, Cypher's =~, a full match)."""
    needles, patterns = [], []
    for term in terms:
        words = term.lower().split()
        if not words:
            continue
        body = r"\s+".join(re.escape(w) for w in words) + r"(?:s|es)?"
        needles.append(words[0].rstrip("s") if len(words[0]) > 3 else words[0])
        patterns.append(r"(?s).*(?<![\p{L}\p{N}])" + body + r"(?![\p{L}\p{N}]).*")
    return {"exclude_needles": needles, "exclude_patterns": patterns}
