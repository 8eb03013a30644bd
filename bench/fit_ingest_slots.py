"""Fits ingestion's slot classifier (graph/ingestion/slot_classifier.py) on the whole tuning half of
the labelled utterances, and writes it beside the module as graph/ingestion/slots.json, which the
service ships.

    .venv/bin/python bench/fit_ingest_slots.py            # write the file
    .venv/bin/python bench/fit_ingest_slots.py --check    # exit 1 when the shipped file differs from a fresh fit

Only `tune` lines are read (bench/ingestion_folds.py's `slot_label_of`: the one slot a line's claims
fill, a canonical predicate or `open`, and `none` for a user's line that expects no claim); each
text embedded as written with the service's default model. The fit is deterministic (lbfgs from
zero)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.fit_intents import fit_main  # noqa: E402
from bench.ingestion_folds import Encoder, fitted_slots, slot_examples  # noqa: E402
from bench.ingestion_quality import Similarity, load  # noqa: E402
from graph.ingestion import slot_classifier  # noqa: E402


def main() -> None:
    rows = load("tune")
    fit_main(__doc__, slot_classifier.SHIPPED, slot_classifier.HEAD, slot_classifier.shipped,
             lambda: fitted_slots(rows, Encoder(Similarity(lexical=False))),
             f"slots, fitted on {len(slot_examples(rows))} texts of the tuning half,")


if __name__ == "__main__":
    main()
