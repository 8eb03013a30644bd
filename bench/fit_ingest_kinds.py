"""Fits ingestion's classifier of claimless kinds (graph/ingestion/kind_classifier.py) on the whole
tuning half of the labelled utterances, and writes it beside the module as
graph/ingestion/kinds.json, which the service ships.

    .venv/bin/python bench/fit_ingest_kinds.py            # write the file
    .venv/bin/python bench/fit_ingest_kinds.py --check    # exit 1 when the shipped file differs from a fresh fit

Only `tune` lines are read (bench/ingestion_folds.py's labels: the kind of a line's claimless
memory, `none` for a user's line that expects nothing); each sentence embedded as written with the
service's default model. The fit is deterministic (lbfgs from zero)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.fit_intents import fit_main  # noqa: E402
from bench.ingestion_folds import Encoder, examples, fitted  # noqa: E402
from bench.ingestion_quality import Similarity, load  # noqa: E402
from graph.ingestion import kind_classifier  # noqa: E402


def main() -> None:
    rows = load("tune")
    fit_main(__doc__, kind_classifier.SHIPPED, kind_classifier.HEAD, kind_classifier.shipped,
             lambda: fitted(rows, Encoder(Similarity(lexical=False))),
             f"labels, fitted on {len(examples(rows))} sentences of the tuning half,")


if __name__ == "__main__":
    main()
